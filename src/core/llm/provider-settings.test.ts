import { describe, expect, it } from 'vitest';
import { createLlmProvider, samplingOf } from './provider-settings.ts';
import { TransformersTextProvider } from './transformers-provider.ts';

describe('createLlmProvider', () => {
  it('builds an OpenAI-compatible provider that sends the key only in the Authorization header', async () => {
    const seen: Array<{ url: string; auth: string | null; body: string }> = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({ url: String(input), auth: headers.get('authorization'), body: String(init?.body) });
      return new Response(JSON.stringify({ choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] }), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const provider = createLlmProvider(
      { kind: 'openai-compatible', presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1/', model: 'm1', apiKey: ' sk-abcdef ', temperature: 0.3, maxTokens: 64 },
      { fetch: fakeFetch },
    );
    expect(provider.describe()).toMatchObject({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'm1' });
    const response = await provider.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.content).toBe('hi');
    expect(seen[0]!.url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(seen[0]!.auth).toBe('Bearer sk-abcdef');
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ model: 'm1', temperature: 0.3, max_tokens: 64 });
    expect(seen[0]!.body).not.toContain('sk-abcdef');
  });

  it('sends no Authorization header without a key', async () => {
    let auth: string | null = 'unset';
    const provider = createLlmProvider(
      { kind: 'openai-compatible', presetId: 'ollama', baseUrl: 'http://h/v1', model: 'm', apiKey: '  ' },
      {
        fetch: async (_input, init) => {
          auth = new Headers(init?.headers).get('authorization');
          return new Response('{"choices":[{"message":{"content":"ok"}}]}', { headers: { 'content-type': 'application/json' } });
        },
      },
    );
    await provider.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(auth).toBeNull();
  });

  it('builds an in-browser provider, resolving the automatic device with the host', () => {
    const provider = createLlmProvider({ kind: 'transformers', modelId: 'org/tiny-chat', device: 'auto' }, { autoDevice: 'webgpu' });
    expect(provider).toBeInstanceOf(TransformersTextProvider);
    expect((provider as TransformersTextProvider).runtime).toEqual({ device: 'webgpu', dtype: 'q4f16' });
    expect(provider.describe()).toEqual({ provider: 'transformers.js', baseUrl: '', model: 'org/tiny-chat' });
    const wasm = createLlmProvider({ kind: 'transformers', modelId: 'org/tiny-chat', device: 'auto' });
    expect((wasm as TransformersTextProvider).runtime).toEqual({ device: 'wasm', dtype: 'q4' });
  });

  it('runs the local model of `npm run models` with its one weight variant, from where the host says', async () => {
    const asked: Array<[string, string]> = [];
    const provider = createLlmProvider(
      { kind: 'transformers', modelId: ' local/qwen2.5-coder-0.5b-instruct ', device: 'auto' },
      {
        autoDevice: 'webgpu',
        inBrowserSource: async (modelId, dtype) => {
          asked.push([modelId, dtype]);
          throw new Error('probe stopped here');
        },
      },
    ) as TransformersTextProvider;
    expect(provider.runtime).toEqual({ device: 'webgpu', dtype: 'q4' });
    expect(provider.describe().model).toBe('local/qwen2.5-coder-0.5b-instruct');
    await expect(provider.load()).rejects.toThrow('probe stopped here');
    expect(asked).toEqual([['local/qwen2.5-coder-0.5b-instruct', 'q4']]);
  });

  it('says what is missing', () => {
    expect(() => createLlmProvider({ kind: 'openai-compatible', presetId: 'custom', baseUrl: '', model: 'm' })).toThrow('The base URL of the model server is empty.');
    expect(() => createLlmProvider({ kind: 'transformers', modelId: ' ', device: 'wasm' })).toThrow('The model id is empty.');
  });

  it('records the sampling settings that were set', () => {
    expect(samplingOf({ kind: 'openai-compatible', presetId: 'x', baseUrl: 'u', model: 'm', apiKey: 'k', temperature: 0 })).toEqual({ temperature: 0 });
  });

  it('records a system message that is not blank, trimmed, and gives it to the provider', () => {
    const settings = { kind: 'openai-compatible' as const, presetId: 'x', baseUrl: 'http://h/v1', model: 'm', systemPrompt: ' Search first. ' };
    expect(samplingOf(settings)).toEqual({ systemPrompt: 'Search first.' });
    expect(samplingOf({ ...settings, systemPrompt: ' ' })).toEqual({});
  });
});
