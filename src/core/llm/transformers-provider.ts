import { type TransformersModule, toLoadProgress, type ModelLoadProgress } from '../embedding/index.ts';
import { abortError } from '../abort/index.ts';
import { LlmError } from './errors.ts';
import type { ConnectionTestResult, LlmCallOptions, LlmDescription, LlmProvider, LlmRequest, LlmResponse } from './types.ts';

/** Where the in-browser model runs: WebGPU, ONNX Runtime's wasm backend, or native CPU (Node). */
export type TextGenerationDevice = 'webgpu' | 'wasm' | 'cpu';

/** Settings of a transformers.js text-generation model run in process (browser worker or Node). */
export interface TransformersProviderOptions {
  /** A transformers.js text-generation model with a chat template, e.g. `onnx-community/Qwen2.5-0.5B-Instruct`. */
  modelId: string;
  /** Backend; default `wasm`. The caller decides whether WebGPU is available. */
  device?: TextGenerationDevice;
  /** Weight variant; default `q4f16` on WebGPU, `q4` otherwise. */
  dtype?: string;
  /** Default sampling temperature; 0 or unset = greedy decoding. */
  temperature?: number;
  /** Default maximum of new tokens (default 512). */
  maxTokens?: number;
  /** Sets `env.allowRemoteModels`: fetch the model from the Hugging Face hub on first use (default true). */
  allowRemoteModels?: boolean;
  /** Sets `env.localModelPath` (a URL path in browsers, a folder in Node) and allows local models. */
  localModelPath?: string;
  /**
   * Decided just before loading (overrides `allowRemoteModels`/`localModelPath`): where the files come from, e.g.
   * the app's own /models/ when it serves this model. `release` runs once the model is loaded or has failed.
   */
  source?: () => Promise<TextModelSource>;
  /** Download and loading progress, per file. */
  onLoadProgress?: (event: ModelLoadProgress) => void;
  /** The transformers.js module, or a loader for it; default a dynamic import of `@huggingface/transformers`. */
  transformers?: TransformersModule | (() => Promise<TransformersModule>);
}

/** Where a text-generation model's files are read from. */
export interface TextModelSource {
  allowRemoteModels: boolean;
  localModelPath?: string;
  release?: () => void;
}

// The parts of transformers.js this provider uses (typed loosely: the library's own types are very wide).
interface ChatTokenizerLike {
  apply_chat_template(messages: unknown[], options: Record<string, unknown>): unknown;
}
interface TextGeneratorLike {
  (messages: unknown[], options: Record<string, unknown>): Promise<unknown>;
  tokenizer: ChatTokenizerLike;
  dispose?(): Promise<void>;
}
interface StoppingLike {
  interrupt(): void;
}

const DEFAULT_MAX_NEW_TOKENS = 512;

/**
 * A small instruct model run in process through transformers.js `pipeline('text-generation')`: streamed through a
 * `TextStreamer`, stopped on abort with `InterruptableStoppingCriteria`. The model is downloaded (with progress) on the
 * first call. Checked against a real model (Qwen2.5-Coder-0.5B-Instruct exported by `npm run models`) in
 * bench/real/in-browser-llm.real.test.ts and e2e-real/hds-in-browser-llm.spec.ts.
 */
export class TransformersTextProvider implements LlmProvider {
  private readonly options: TransformersProviderOptions;
  private generator: Promise<{ generator: TextGeneratorLike; module: TransformersModule }> | null = null;

  constructor(options: TransformersProviderOptions) {
    if (!options.modelId.trim()) throw new Error('The model id is empty.');
    this.options = options;
  }

  describe(): LlmDescription {
    return { provider: 'transformers.js', baseUrl: '', model: this.options.modelId };
  }

  /** The device and weight variant used. */
  get runtime(): { device: TextGenerationDevice; dtype: string } {
    const device = this.options.device ?? 'wasm';
    return { device, dtype: this.options.dtype ?? (device === 'webgpu' ? 'q4f16' : 'q4') };
  }

  /** Downloads (first time) and loads the model; later calls reuse it. */
  load(): Promise<{ generator: TextGeneratorLike; module: TransformersModule }> {
    this.generator ??= this.loadOnce();
    this.generator.catch(() => (this.generator = null));
    return this.generator;
  }

  private async loadOnce(): Promise<{ generator: TextGeneratorLike; module: TransformersModule }> {
    const given = this.options.transformers;
    const module = typeof given === 'function' ? await given() : (given ?? (await import('@huggingface/transformers')));
    const { env } = module;
    const source: TextModelSource = this.options.source
      ? await this.options.source()
      : { allowRemoteModels: this.options.allowRemoteModels ?? true, localModelPath: this.options.localModelPath };
    env.allowRemoteModels = source.allowRemoteModels;
    if (source.localModelPath !== undefined) {
      env.localModelPath = source.localModelPath;
      env.allowLocalModels = true;
    }
    const { device, dtype } = this.runtime;
    const onLoadProgress = this.options.onLoadProgress;
    try {
      const generator = (await module.pipeline('text-generation', this.options.modelId, {
        device,
        dtype: dtype as never,
        progress_callback: onLoadProgress ? (info: unknown) => onLoadProgress(toLoadProgress(info)) : undefined,
      })) as unknown as TextGeneratorLike;
      onLoadProgress?.({ status: 'ready' });
      return { generator, module };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const where = env.allowRemoteModels ? 'the Hugging Face hub' : `the local model path "${env.localModelPath}"`;
      throw new LlmError('network', `Could not load the in-browser model "${this.options.modelId}" (${device}, ${dtype}) from ${where}: ${reason}`);
    } finally {
      source.release?.();
    }
  }

  async complete(request: LlmRequest, options: LlmCallOptions = {}): Promise<LlmResponse> {
    const { signal, onDelta } = options;
    if (signal?.aborted) throw abortError();
    const { generator, module } = await this.load();
    if (signal?.aborted) throw abortError();
    const messages = request.messages.map((m) => ({ role: m.role, content: m.content }));
    let content = '';
    let completionTokens = 0;
    const streamer = new module.TextStreamer(generator.tokenizer as never, {
      skip_prompt: true,
      skip_special_tokens: true,
      callback_function: (text: string) => {
        content += text;
        onDelta?.({ content: text, reasoning: '' });
      },
      token_callback_function: (tokens: bigint[]) => {
        completionTokens += tokens.length;
      },
    });
    const stopping = new module.InterruptableStoppingCriteria() as unknown as StoppingLike;
    const onAbort = () => stopping.interrupt();
    signal?.addEventListener('abort', onAbort, { once: true });
    const temperature = request.temperature ?? this.options.temperature ?? 0;
    const maxNewTokens = request.maxTokens ?? this.options.maxTokens ?? DEFAULT_MAX_NEW_TOKENS;
    try {
      const output = await generator(messages, {
        max_new_tokens: maxNewTokens,
        do_sample: temperature > 0,
        ...(temperature > 0 ? { temperature } : {}),
        streamer,
        stopping_criteria: stopping,
      });
      if (signal?.aborted) throw abortError();
      const final = generatedText(output) ?? content;
      const promptTokens = this.promptTokens(generator, messages);
      return {
        content: final,
        reasoning: '',
        usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
        finishReason: completionTokens >= maxNewTokens ? 'length' : 'stop',
        model: this.options.modelId,
      };
    } catch (error) {
      if (signal?.aborted) throw abortError();
      if (error instanceof LlmError) throw error;
      throw new LlmError('protocol', `The in-browser model failed while generating: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Loads the model (downloading it the first time); never rejects. */
  async testConnection(): Promise<ConnectionTestResult> {
    try {
      await this.load();
      const { device, dtype } = this.runtime;
      return { ok: true, message: `Loaded ${this.options.modelId} (${device}, ${dtype}).` };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }

  private promptTokens(generator: TextGeneratorLike, messages: unknown[]): number {
    try {
      // return_dict defaults to true in transformers.js 4: without `return_dict: false` this is {input_ids, attention_mask}.
      const ids = generator.tokenizer.apply_chat_template(messages, { add_generation_prompt: true, tokenize: true, return_tensor: false, return_dict: false });
      return Array.isArray(ids) ? ids.length : 0;
    } catch {
      return 0;
    }
  }
}

/** The assistant text of a text-generation pipeline output (chat or plain), if it has one. */
export function generatedText(output: unknown): string | undefined {
  const first = Array.isArray(output) ? (output[0] as { generated_text?: unknown } | undefined) : undefined;
  const generated = first?.generated_text;
  if (typeof generated === 'string') return generated;
  if (Array.isArray(generated)) {
    const last = generated[generated.length - 1] as { role?: unknown; content?: unknown } | undefined;
    if (last?.role === 'assistant' && typeof last.content === 'string') return last.content;
  }
  return undefined;
}

