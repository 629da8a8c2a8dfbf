import type { ModelLoadProgress, TransformersModule } from '../embedding/embedder.ts';
import { OpenAiCompatibleProvider } from './openai-provider.ts';
import { findLocalInBrowserModel } from './in-browser-models.ts';
import { TransformersTextProvider, type TextGenerationDevice, type TextModelSource } from './transformers-provider.ts';
import type { LlmProvider } from './types.ts';

/** An OpenAI-compatible chat-completions endpoint, as the model settings hold it. */
export interface OpenAiEndpointSettings {
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
  /** System message sent before the HDS prompts (never the baselines'); none when unset or blank (the reference sends none). */
  systemPrompt?: string;
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
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    maxResponseChars: settings.maxResponseChars,
    idleTimeoutMs: settings.idleTimeoutMs,
    fetch: host.fetch,
  });
}

/** The sampling settings a run records with the model description (never the key). */
export function samplingOf(settings: LlmProviderSettings): { temperature?: number; maxTokens?: number; systemPrompt?: string } {
  const system = settings.systemPrompt?.trim();
  return {
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
    ...(system ? { systemPrompt: system } : {}),
  };
}
