// Switching the model provider keeps what was typed for each one: its base URL, model, temperature and max tokens
// come back when the user switches back. Keys are not part of this; they stay in the settings store per preset.
import { findLlmPreset } from './presets.ts';
import type { LlmProviderSettings } from './provider-settings.ts';

/** The provider list's entry for an endpoint that is not a preset. */
export const CUSTOM_PROVIDER = 'custom';
/** The provider list's entry for a model run in the browser. */
export const IN_BROWSER_PROVIDER = 'transformers';
/** The in-browser model offered first. */
export const DEFAULT_IN_BROWSER_MODEL = 'onnx-community/Qwen2.5-0.5B-Instruct';

/** The provider list entry `settings` belong to: a preset id, `custom` or `transformers`. */
export function providerChoiceOf(settings: LlmProviderSettings): string {
  return settings.kind === 'transformers' ? IN_BROWSER_PROVIDER : settings.presetId;
}

/** The settings a provider starts with the first time it is chosen: the preset's address and example model only. */
export function freshProviderSettings(choice: string): LlmProviderSettings {
  if (choice === IN_BROWSER_PROVIDER) return { kind: 'transformers', modelId: DEFAULT_IN_BROWSER_MODEL, device: 'auto', maxTokens: 512 };
  const preset = findLlmPreset(choice);
  return { kind: 'openai-compatible', presetId: preset ? preset.id : CUSTOM_PROVIDER, baseUrl: preset?.baseUrl ?? '', model: preset?.exampleModel ?? '' };
}

/** The active provider and the last settings of every other one (by choice), never with a key. */
export interface ProviderChoices {
  active: LlmProviderSettings;
  others: Record<string, LlmProviderSettings>;
}

/** Settings without their API key. */
export function withoutKey(settings: LlmProviderSettings): LlmProviderSettings {
  if (settings.kind !== 'openai-compatible' || !('apiKey' in settings)) return settings;
  const { apiKey: _key, ...rest } = settings;
  return rest;
}

/**
 * Switches to `choice`: the current provider's settings are kept under its own choice, and `choice` comes back as
 * it was left (or fresh), with its own stored key. Nothing carries over from one provider to another.
 */
export function switchProvider(current: ProviderChoices, choice: string, apiKeys: Readonly<Record<string, string>>): ProviderChoices {
  const from = providerChoiceOf(current.active);
  const others = { ...current.others, [from]: withoutKey(current.active) };
  const target = choice === IN_BROWSER_PROVIDER || findLlmPreset(choice) ? choice : CUSTOM_PROVIDER;
  const next = others[target] ?? freshProviderSettings(target);
  delete others[target];
  const active: LlmProviderSettings = next.kind === 'openai-compatible' ? { ...next, apiKey: apiKeys[next.presetId] ?? '' } : next;
  return { active, others };
}
