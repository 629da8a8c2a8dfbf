// The door of llm: LLM providers (OpenAI-compatible, in-browser), their settings and presets.
export { LlmError } from './errors.ts';
export {
  findLocalInBrowserModel, howToGetTextModel, LOCAL_IN_BROWSER_MODELS, type LocalInBrowserModel, probeAppTextModel,
} from './in-browser-models.ts';
export { MemorySettingsStore } from './memory-settings-store.ts';
export { OpenAiCompatibleProvider } from './openai-provider.ts';
export { findLlmPreset, LLM_PRESETS } from './presets.ts';
export { CUSTOM_PROVIDER, IN_BROWSER_PROVIDER, switchProvider } from './provider-choice.ts';
export {
  createLlmProvider, type LlmProviderSettings, type ProviderHost, samplingOf, samplingSettingsOf,
} from './provider-settings.ts';
export {
  activeWithKey, llmSettingsRecord, type LlmSettingsRecord, secretsOf, type SettingsStore, withApiKey,
} from './settings-store.ts';
export { type TextGenerationDevice, type TextModelSource, TransformersTextProvider } from './transformers-provider.ts';
export {
  type ChatMessage, type ConnectionTestResult, type LlmCallOptions, type LlmDelta, type LlmDescription,
  type LlmProvider, type LlmRequest, type LlmResponse, type SamplingSettings, type TokenUsage,
} from './types.ts';
export { sumUsage } from './usage.ts';
