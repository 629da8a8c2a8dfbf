import type { ModelLoadProgress, TransformersModule } from '../embedding/index.ts';
import { OpenAiCompatibleProvider } from './openai-provider.ts';
import { findLocalInBrowserModel } from './in-browser-models.ts';
import { TransformersTextProvider, type TextGenerationDevice, type TextModelSource } from './transformers-provider.ts';
import type { LlmProvider, SamplingSettings } from './types.ts';

/** An OpenAI-compatible chat-completions endpoint, as the model settings hold it. */
export interface OpenAiEndpointSettings extends SamplingSettings {
  kind: 'openai-compatible';
  /** The preset it started from (`openai`, `ollama`, …) or `custom`. */
  presetId: string;
  /** Base URL up to the version segment. */
  baseUrl: string;
  /** Model name. */
  model: string;
  /** API key; kept in the browser's settings store only, never in runs or exports. */
  apiKey?: string;
  /** Sampling temperature; the server's default when unset. */
  temperature?: number;
  /** Completion-token limit; the server's default when unset. */
  maxTokens?: number;
  /** System message sent before the HDS plan prompts (never the final prompt or the baselines'); none when unset or blank. */
  systemPrompt?: string;
  /** The server continues a trailing assistant message (llama.cpp, vLLM), so a final answer can be pre-filled (H10). */
  assistantPrefill?: boolean;
  /** A streamed reply longer than this many characters is ended with an error (the provider's default when unset). */
  maxResponseChars?: number;
  /** A streamed reply bringing no new text for this many ms is ended with an error (the provider's default when unset). */
  idleTimeoutMs?: number;
}

/** A transformers.js model run in the browser. */
export interface InBrowserModelSettings {
  kind: 'transformers';
  /** Hugging Face model id, e.g. `onnx-community/Qwen2.5-0.5B-Instruct`. */
  modelId: string;
  /** `auto`: WebGPU when the browser offers an adapter, else wasm. */
  device: 'auto' | TextGenerationDevice;
  /** Sampling temperature; 0 = greedy. */
  temperature?: number;
  /** Maximum new tokens per call. */
  maxTokens?: number;
  /** As `OpenAiEndpointSettings.systemPrompt`: a system turn of the model's chat template before the HDS prompts only. */
  systemPrompt?: string;
}

/** What the model settings describe. */
export type LlmProviderSettings = OpenAiEndpointSettings | InBrowserModelSettings;

/** What a host provides to build providers (fetch for tests, transformers.js and WebGPU detection in workers). */
export interface ProviderHost {
  /** The fetch implementation for HTTP providers. */
  fetch?: typeof fetch;
  /** Loads transformers.js, configured for this host (wasm paths…). */
  transformers?: () => Promise<TransformersModule>;
  /** The device `auto` resolves to. */
  autoDevice?: TextGenerationDevice;
  /** Model download progress of in-browser models. */
  onModelProgress?: (event: ModelLoadProgress) => void;
  /** Where an in-browser model's files come from (the app's /models/ when it serves them); default the hub. */
  inBrowserSource?: (modelId: string, dtype: string, onProgress?: (event: ModelLoadProgress) => void) => Promise<TextModelSource>;
}

/** Builds the provider the settings describe. Throws an Error in plain words for incomplete settings. */
export function createLlmProvider(settings: LlmProviderSettings, host: ProviderHost = {}): LlmProvider {
  if (settings.kind === 'transformers') {
    const device = settings.device === 'auto' ? (host.autoDevice ?? 'wasm') : settings.device;
    // A model of `npm run models` has one weight variant, whatever the device.
    const dtype = findLocalInBrowserModel(settings.modelId)?.dtype;
    const source = host.inBrowserSource;
    return new TransformersTextProvider({
      modelId: settings.modelId.trim(),
      device,
      dtype,
      source: source ? () => source(settings.modelId.trim(), dtype ?? (device === 'webgpu' ? 'q4f16' : 'q4'), host.onModelProgress) : undefined,
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      onLoadProgress: host.onModelProgress,
      transformers: host.transformers,
    });
  }
  return new OpenAiCompatibleProvider({
    baseUrl: settings.baseUrl,
    model: settings.model,
    apiKey: settings.apiKey?.trim() || undefined,
    ...samplingSettingsOf(settings),
    ...(settings.assistantPrefill ? { assistantPrefill: true } : {}),
    maxResponseChars: settings.maxResponseChars,
    idleTimeoutMs: settings.idleTimeoutMs,
    fetch: host.fetch,
  });
}

const SAMPLING_KEYS: ReadonlyArray<keyof SamplingSettings> = ['temperature', 'topP', 'maxTokens', 'frequencyPenalty', 'presencePenalty', 'repeatPenalty', 'seed'];

/** The sampling settings that are set (H11: the unset ones are not sent, so the server's defaults apply). */
export function samplingSettingsOf(settings: SamplingSettings): SamplingSettings {
  const out: SamplingSettings = {};
  for (const key of SAMPLING_KEYS) if (settings[key] !== undefined) out[key] = settings[key];
  return out;
}

/** The sampling settings a run records with the model description (never the key). */
export function samplingOf(settings: LlmProviderSettings): SamplingSettings & { systemPrompt?: string } {
  const system = settings.systemPrompt?.trim();
  return { ...samplingSettingsOf(settings), ...(system ? { systemPrompt: system } : {}) };
}
