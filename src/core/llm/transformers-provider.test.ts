import { describe, expect, it } from 'vitest';
import type { ModelLoadProgress, TransformersModule } from '../embedding/index.ts';
import { generatedText, TransformersTextProvider } from './transformers-provider.ts';

// A stand-in for transformers.js: it follows the documented contracts (TextStreamer callbacks, stopping criteria,
// chat output) so the provider's plumbing can be tested without a real instruct model.
function fakeTransformers(pieces: string[], options: { failLoad?: string; pieceDelayMs?: number } = {}) {
  const calls: Array<{ task: string; model: string; options: Record<string, unknown>; messages?: unknown; kwargs?: Record<string, unknown> }> = [];
  class TextStreamer {
    constructor(
      readonly tokenizer: unknown,
      readonly opts: { callback_function(text: string): void; token_callback_function(tokens: bigint[]): void; skip_prompt: boolean },
    ) {}
  }
  class InterruptableStoppingCriteria {
    interrupted = false;
    interrupt() {
      this.interrupted = true;
    }
  }
  const module = {
    env: {} as Record<string, unknown>,
    TextStreamer,
    InterruptableStoppingCriteria,
    async pipeline(task: string, model: string, opts: Record<string, unknown>) {
      const call: (typeof calls)[number] = { task, model, options: opts };
      calls.push(call);
      const progress = opts.progress_callback as ((info: unknown) => void) | undefined;
      progress?.({ status: 'initiate', file: 'onnx/model_q4.onnx' });
      progress?.({ status: 'progress', file: 'onnx/model_q4.onnx', loaded: 50, total: 200, progress: 25 });
      if (options.failLoad) throw new Error(options.failLoad);
      const generator = async (messages: unknown, kwargs: Record<string, unknown>) => {
        call.messages = messages;
        call.kwargs = kwargs;
        const streamer = kwargs.streamer as TextStreamer;
        const stop = kwargs.stopping_criteria as InterruptableStoppingCriteria;
        let text = '';
        for (const piece of pieces) {
          if (options.pieceDelayMs) await new Promise((r) => setTimeout(r, options.pieceDelayMs));
          if (stop.interrupted) break;
          text += piece;
          streamer.opts.token_callback_function([1n]);
          streamer.opts.callback_function(piece);
        }
        return [{ generated_text: [...(messages as unknown[]), { role: 'assistant', content: text }] }];
      };
      // As transformers.js 4: a dict unless return_dict is false.
      generator.tokenizer = {
        apply_chat_template: (_messages: unknown, opts: { return_dict?: boolean }) => {
          const ids = [1, 2, 3, 4, 5, 6, 7];
          return opts.return_dict === false ? ids : { input_ids: ids, attention_mask: ids.map(() => 1) };
        },
      };
      return generator;
    },
  };
  return { module: module as unknown as TransformersModule, calls, env: module.env };
}

describe('TransformersTextProvider', () => {
  it('downloads the model once with progress, streams the reply and counts tokens', async () => {
    const fake = fakeTransformers(['<|begin search queries|>', 'tide mills', '<|end search queries|>']);
    const progress: ModelLoadProgress[] = [];
    const provider = new TransformersTextProvider({ modelId: 'org/chat', transformers: fake.module, maxTokens: 100, onLoadProgress: (p) => progress.push(p) });
    const deltas: string[] = [];
    const response = await provider.complete({ messages: [{ role: 'user', content: 'plan' }] }, { onDelta: (d) => deltas.push(d.content) });
    expect(deltas).toEqual(['<|begin search queries|>', 'tide mills', '<|end search queries|>']);
    expect(response).toEqual({
      content: '<|begin search queries|>tide mills<|end search queries|>',
      reasoning: '',
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 },
      finishReason: 'stop',
      model: 'org/chat',
    });
    expect(progress).toEqual([
      { status: 'initiate', file: 'onnx/model_q4.onnx' },
      { status: 'progress', file: 'onnx/model_q4.onnx', loaded: 50, total: 200, progress: 25 },
      { status: 'ready' },
    ]);
    expect(fake.calls[0]).toMatchObject({ task: 'text-generation', model: 'org/chat', options: { device: 'wasm', dtype: 'q4' } });
    expect(fake.calls[0]!.kwargs).toMatchObject({ max_new_tokens: 100, do_sample: false });
    expect(fake.env.allowRemoteModels).toBe(true);
    await provider.complete({ messages: [{ role: 'user', content: 'again' }], temperature: 0.7, maxTokens: 3 });
    expect(fake.calls).toHaveLength(1); // loaded once
    expect(fake.calls[0]!.kwargs).toMatchObject({ max_new_tokens: 3, do_sample: true, temperature: 0.7 });
  });

  it('stops generating when the signal aborts and rejects with an AbortError', async () => {
    const fake = fakeTransformers(['a', 'b', 'c', 'd', 'e'], { pieceDelayMs: 20 });
    const provider = new TransformersTextProvider({ modelId: 'org/chat', transformers: fake.module });
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = provider.complete({ messages: [{ role: 'user', content: 'x' }] }, {
      signal: controller.signal,
      onDelta: (d) => {
        deltas.push(d.content);
        if (deltas.length === 2) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(deltas).toEqual(['a', 'b']);
    expect((fake.calls[0]!.kwargs!.stopping_criteria as { interrupted: boolean }).interrupted).toBe(true);
  });

  it('explains a model that cannot be loaded, and a later call tries again', async () => {
    const fake = fakeTransformers([], { failLoad: 'Could not locate file' });
    const provider = new TransformersTextProvider({ modelId: 'org/missing', device: 'webgpu', transformers: fake.module });
    const result = await provider.testConnection();
    expect(result).toEqual({
      ok: false,
      message: 'Could not load the in-browser model "org/missing" (webgpu, q4f16) from the Hugging Face hub: Could not locate file',
    });
    await expect(provider.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow('Could not locate file');
    expect(fake.calls).toHaveLength(2);
  });
});

describe('TransformersTextProvider source', () => {
  it('reads the model from the source decided at load time and releases it after the load', async () => {
    const fake = fakeTransformers(['ok']);
    let released = 0;
    const provider = new TransformersTextProvider({
      modelId: 'local/chat',
      transformers: fake.module,
      source: async () => ({ allowRemoteModels: false, localModelPath: '/models/', release: () => released++ }),
    });
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).content).toBe('ok');
    expect(fake.env).toMatchObject({ allowRemoteModels: false, allowLocalModels: true, localModelPath: '/models/' });
    expect(released).toBe(1);
  });

  it('names the local path when a local model cannot be loaded', async () => {
    const fake = fakeTransformers([], { failLoad: 'Could not locate file "onnx/model_q4.onnx"' });
    let released = 0;
    const provider = new TransformersTextProvider({
      modelId: 'local/chat',
      transformers: fake.module,
      source: async () => ({ allowRemoteModels: false, localModelPath: '/models/', release: () => released++ }),
    });
    expect(await provider.testConnection()).toEqual({
      ok: false,
      message: 'Could not load the in-browser model "local/chat" (wasm, q4) from the local model path "/models/": Could not locate file "onnx/model_q4.onnx"',
    });
    expect(released).toBe(1);
  });
});

describe('generatedText', () => {
  it('reads chat and plain outputs', () => {
    expect(generatedText([{ generated_text: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }] }])).toBe('a');
    expect(generatedText([{ generated_text: 'plain' }])).toBe('plain');
    expect(generatedText([{ generated_text: [{ role: 'user', content: 'q' }] }])).toBeUndefined();
    expect(generatedText(null)).toBeUndefined();
  });
});
