import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiTestServer, type ScriptedReply } from '../../test-support/openai-test-server.ts';
import { LlmError } from './errors.ts';
import { OpenAiCompatibleProvider, type OpenAiCompatibleConfig } from './openai-provider.ts';
import type { LlmDelta } from './types.ts';

const KEY = 'sk-test-SECRET-0123456789';
const servers: OpenAiTestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(replies: ScriptedReply[], config: Partial<OpenAiCompatibleConfig> = {}) {
  const server = new OpenAiTestServer({ replies });
  servers.push(server);
  const baseUrl = await server.start();
  const sleeps: number[] = [];
  const provider = new OpenAiCompatibleProvider({
    baseUrl,
    model: 'test-model',
    apiKey: KEY,
    retryBaseDelayMs: 5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...config,
  });
  return { server, provider, baseUrl, sleeps };
}

const ask = { messages: [{ role: 'user' as const, content: 'Hello?' }] };

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

function expectNoKey(server: OpenAiTestServer, value: unknown) {
  expect(JSON.stringify(value)).not.toContain(KEY);
  for (const request of server.requests) {
    expect(request.rawBody).not.toContain(KEY);
    expect(request.path).not.toContain(KEY);
    for (const [name, header] of Object.entries(request.headers)) {
      if (name !== 'authorization') expect(String(header)).not.toContain(KEY);
    }
  }
}

describe('OpenAiCompatibleProvider over HTTP: non-streaming', () => {
  it('sends the request and reads content, reasoning_content and usage', async () => {
    const usage = { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 };
    const { server, provider } = await setup([{ content: 'Paris.', reasoning: 'Capital of France.', usage }], {
      stream: false,
      temperature: 0.2,
      maxTokens: 64,
    });
    const deltas: LlmDelta[] = [];
    const response = await provider.complete(ask, { onDelta: (d) => deltas.push(d) });
    expect(response).toEqual({
      content: 'Paris.',
      reasoning: 'Capital of France.',
      usage: { promptTokens: 7, completionTokens: 4, totalTokens: 11 },
      finishReason: 'stop',
      model: 'test-model',
    });
    expect(deltas).toEqual([{ content: 'Paris.', reasoning: 'Capital of France.' }]);
    const [request] = server.chatRequests();
    expect(request.body).toEqual({
      model: 'test-model',
      messages: [{ role: 'user', content: 'Hello?' }],
      stream: false,
      temperature: 0.2,
      max_tokens: 64,
    });
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expectNoKey(server, response);
  });

  it('per-call options override the configured ones', async () => {
    const { server, provider } = await setup([{ content: 'x' }], { stream: false, temperature: 0.2 });
    await provider.complete({ ...ask, temperature: 0, maxTokens: 5, stop: ['\n'] });
    expect(server.chatRequests()[0].body).toMatchObject({ temperature: 0, max_tokens: 5, stop: ['\n'] });
  });

  it('sends the messages as given: no system message of its own (HDS adds one, the baselines none)', async () => {
    const { server, provider } = await setup([{ content: 'x' }, { content: 'y' }], { stream: false });
    await provider.complete(ask);
    await provider.complete({ messages: [{ role: 'system', content: 'Own.' }, ...ask.messages] });
    const [first, second] = server.chatRequests();
    expect(first.body.messages).toEqual([{ role: 'user', content: 'Hello?' }]);
    expect(second.body.messages).toEqual([{ role: 'system', content: 'Own.' }, { role: 'user', content: 'Hello?' }]);
  });

  it('sends no Authorization header without a key', async () => {
    const { server, provider } = await setup([{ content: 'x' }], { stream: false, apiKey: '' });
    await provider.complete(ask);
    expect(server.chatRequests()[0].headers.authorization).toBeUndefined();
  });
});

describe('OpenAiCompatibleProvider over HTTP: streaming', () => {
  it('streams content and reasoning_content separately, across arbitrary byte boundaries, with usage', async () => {
    const content = 'Grüße aus Köln 🌍 — done.';
    const usage = { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 };
    let bodyChunks = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const counted = res.body?.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            bodyChunks++;
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(counted, { status: res.status, headers: res.headers });
    };
    const { server, provider } = await setup(
      [{ content, reasoning: 'Denke nach…', usage, chunkChars: 2, writeBytes: 3 }],
      { fetch: countingFetch },
    );
    const deltas: LlmDelta[] = [];
    const response = await provider.complete(ask, { onDelta: (d) => deltas.push(d) });
    expect(response.content).toBe(content);
    expect(response.reasoning).toBe('Denke nach…');
    expect(response.usage).toEqual({ promptTokens: 3, completionTokens: 9, totalTokens: 12 });
    expect(response.finishReason).toBe('stop');
    expect(deltas.length).toBeGreaterThan(10);
    expect(bodyChunks).toBeGreaterThan(50); // the bytes really arrived in many small pieces
    expect(deltas.map((d) => d.content).join('')).toBe(content);
    expect(deltas.map((d) => d.reasoning).join('')).toBe('Denke nach…');
    expect(deltas.every((d) => d.content === '' || d.reasoning === '')).toBe(true);
    const [request] = server.chatRequests();
    expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(request.headers.accept).toBe('text/event-stream');
    expectNoKey(server, response);
  });

  it('never passes on the API key when the model echoes it, even split across deltas and writes', async () => {
    const content = `Your key is ${KEY}; again:${KEY}`;
    const { provider } = await setup([
      { content, reasoning: `I saw ${KEY} in the header`, chunkChars: 3, writeBytes: 7 },
      { content },
    ]);
    const deltas: LlmDelta[] = [];
    const streamed = await provider.complete(ask, { onDelta: (d) => deltas.push(d) });
    expect(streamed.content).toBe('Your key is [redacted]; again:[redacted]');
    expect(streamed.reasoning).toBe('I saw [redacted] in the header');
    expect(deltas.map((d) => d.content).join('')).toBe(streamed.content);
    expect(deltas.map((d) => d.reasoning).join('')).toBe(streamed.reasoning);
    for (const d of deltas) expect(JSON.stringify(d)).not.toMatch(/SECRET-0123/);
    const whole = await new OpenAiCompatibleProvider({ baseUrl: provider.describe().baseUrl, model: 'test-model', apiKey: KEY, stream: false }).complete(ask);
    expect(whole.content).toBe('Your key is [redacted]; again:[redacted]');
  });

  it('reads OpenRouter-style `reasoning` deltas and CRLF line endings', async () => {
    const { provider } = await setup([
      { content: 'ok', reasoning: 'thinking', reasoningField: 'reasoning', crlf: true, chunkChars: 3, writeBytes: 5 },
    ]);
    const response = await provider.complete(ask);
    expect(response).toMatchObject({ content: 'ok', reasoning: 'thinking' });
  });

  it('does not ask for usage when includeUsage is false', async () => {
    const { server, provider } = await setup([{ content: 'x', usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }], {
      includeUsage: false,
    });
    const response = await provider.complete(ask);
    expect(server.chatRequests()[0].body.stream_options).toBeUndefined();
    expect(response.usage).toBeUndefined();
  });

  it('accepts a stream that ends after a finish reason without [DONE]', async () => {
    const { provider } = await setup([{ content: 'fine', omitDone: true }]);
    expect((await provider.complete(ask)).content).toBe('fine');
  });

  it('a stream that ends without [DONE] or a finish reason is an error', async () => {
    const { provider } = await setup([{ content: 'cut', omitDone: true, finishReason: '' }]);
    const err = await rejection(provider.complete(ask));
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe('stream');
    expect(err.message).toMatch(/ended before it was complete/);
  });
});

describe('OpenAiCompatibleProvider over HTTP: failures', () => {
  it('retries a 429, waiting what Retry-After asks, then succeeds', async () => {
    const { server, provider, sleeps } = await setup([
      { status: 429, retryAfter: '2', errorMessage: 'slow down' },
      { content: 'after the wait' },
    ]);
    const response = await provider.complete(ask);
    expect(response.content).toBe('after the wait');
    expect(sleeps).toEqual([2000]);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('caps Retry-After at retryMaxDelayMs, and really waits (short delays)', async () => {
    const { provider, server } = await setup(
      [{ status: 429, retryAfter: '30' }, { content: 'ok' }],
      { sleep: undefined, retryMaxDelayMs: 40 },
    );
    const started = performance.now();
    expect((await provider.complete(ask)).content).toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('retries 5xx with exponential backoff and then reports the failure plainly', async () => {
    const failures = Array.from({ length: 4 }, () => ({ status: 500, errorMessage: 'model crashed' }));
    const { server, provider, sleeps } = await setup(failures, { maxRetries: 3, retryBaseDelayMs: 10 });
    const err = await rejection(provider.complete(ask));
    expect(err).toBeInstanceOf(LlmError);
    expect(err.message).toBe('The model server failed (HTTP 500) on all 4 attempt(s): model crashed');
    expect((err as LlmError).status).toBe(500);
    expect(sleeps).toEqual([10, 20, 40]);
    expect(server.chatRequests()).toHaveLength(4);
  });

  it('does not retry other client errors, and keeps the key out of the message', async () => {
    const { server, provider, sleeps } = await setup([{ status: 400, errorMessage: `bad request for key ${KEY}` }]);
    const err = await rejection(provider.complete(ask));
    expect(err.message).toBe('The model server refused the request (HTTP 400): bad request for key [redacted]');
    expect(sleeps).toEqual([]);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('a 401 says to check the key, without echoing the server message', async () => {
    const { provider } = await setup([{ status: 401, errorMessage: 'Incorrect API key provided: sk-tes*****6789' }]);
    const err = await rejection(provider.complete(ask));
    expect(err.message).toMatch(/refused the credentials \(HTTP 401\); check the API key/);
    expect(err.message).not.toContain('sk-tes');
  });

  it('times out when the server does not answer', async () => {
    const { provider } = await setup([{ content: 'too late', delayMs: 2000 }], { timeoutMs: 100 });
    const started = performance.now();
    const err = await rejection(provider.complete(ask));
    expect(performance.now() - started).toBeLessThan(1500);
    expect((err as LlmError).kind).toBe('timeout');
    expect(err.message).toMatch(/did not answer for 0\.1 s \(timeout\)/);
  });

  it('times out when a stream stalls between chunks', async () => {
    const { provider } = await setup([{ content: 'abcdef', chunkChars: 1, writeDelayMs: 300 }], { timeoutMs: 100 });
    const err = await rejection(provider.complete(ask));
    expect((err as LlmError).kind).toBe('timeout');
    expect(err.message).toMatch(/stopped sending/);
  });

  it('a broken stream is a clear error', async () => {
    const { provider } = await setup([{ content: 'abcdefgh', chunkChars: 2, breakAfterEvents: 3, writeDelayMs: 5 }]);
    const deltas: LlmDelta[] = [];
    const err = await rejection(provider.complete(ask, { onDelta: (d) => deltas.push(d) }));
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe('stream');
    expect(err.message).toMatch(/connection to .* broke while the response was arriving/);
    expect(deltas.map((d) => d.content).join('')).toBe('abcd');
  });

  it('malformed SSE is a protocol error', async () => {
    const { provider } = await setup([{ content: 'abc', malformedAfterEvents: 1 }]);
    const err = await rejection(provider.complete(ask));
    expect((err as LlmError).kind).toBe('protocol');
    expect(err.message).toMatch(/not valid JSON/);
  });

  it('an HTML page (200, text/html) where a stream is expected says what came back and what to check', async () => {
    const page = '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>' + 'x'.repeat(100_000) + '</body></html>';
    const { provider, baseUrl } = await setup([{ raw: { contentType: 'text/html; charset=utf-8', body: page } }]);
    const err = await rejection(provider.complete(ask));
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe('protocol');
    expect(err.message).toContain(`The server at ${baseUrl} answered with an HTML page (text/html) instead of an event stream`);
    expect(err.message).toContain('it began "<!DOCTYPE html> <html><head><title>Sign in</title>');
    expect(err.message).toMatch(/ends in \/v1.*proxy.*CORS/);
    expect(err.message).not.toMatch(/ended before it was complete/);
    expect(err.message.length).toBeLessThan(600);
  });

  it('any other body without events where a stream is expected is named by its type and first bytes', async () => {
    const { provider } = await setup([
      { raw: { contentType: 'text/plain', body: 'Welcome to nginx!' } },
      { raw: { body: '' } },
      { raw: { contentType: 'text/html', body: `<p>${KEY}</p>` } },
    ]);
    const plain = await rejection(provider.complete(ask));
    expect(plain.message).toContain('answered with a text/plain body instead of an event stream (it began "Welcome to nginx!")');
    const empty = await rejection(provider.complete(ask));
    expect(empty.message).toContain('answered with a body without a content type instead of an event stream (it was empty)');
    const echoed = await rejection(provider.complete(ask));
    expect(echoed.message).toContain('<p>[redacted]</p>');
    expect(echoed.message).not.toContain(KEY);
  });

  it('an HTML page where JSON is expected (no streaming) says the same', async () => {
    const { provider } = await setup([{ raw: { contentType: 'text/html', body: '<html>Proxy error</html>' } }], { stream: false });
    const err = await rejection(provider.complete(ask));
    expect((err as LlmError).kind).toBe('protocol');
    expect(err.message).toContain('answered with an HTML page (text/html) instead of a JSON chat completion (it began "<html>Proxy error</html>")');
  });

  it('an unreachable server gets the CORS explanation', async () => {
    const { provider, server } = await setup([]);
    await server.close();
    const err = await rejection(provider.complete(ask));
    expect((err as LlmError).kind).toBe('network');
    expect(err.message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    expect(err.message).toContain('OLLAMA_ORIGINS');
    expect(err.message).not.toContain(KEY);
  });

  it('aborting mid-stream rejects at once with AbortError', async () => {
    const { provider } = await setup([{ content: 'x'.repeat(100), chunkChars: 1, writeDelayMs: 20 }]);
    const controller = new AbortController();
    const deltas: LlmDelta[] = [];
    const started = performance.now();
    const err = await rejection(
      provider.complete(ask, {
        signal: controller.signal,
        onDelta: (d) => {
          deltas.push(d);
          if (deltas.length === 2) controller.abort();
        },
      }),
    );
    expect(err.name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(deltas.length).toBeLessThan(5);
  });

  it('aborting during a backoff wait stops the retries', async () => {
    const { provider, server } = await setup([{ status: 503 }, { content: 'never' }], {
      sleep: undefined,
      retryBaseDelayMs: 5000,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await rejection(provider.complete(ask, { signal: controller.signal }));
    expect(err.name).toBe('AbortError');
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe('testConnection', () => {
  it('lists the models and says whether the configured one is there', async () => {
    const { provider, server } = await setup([]);
    const result = await provider.testConnection();
    expect(result.ok).toBe(true);
    expect(result.models).toEqual(['test-model']);
    expect(result.message).toContain('"test-model" is available');
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    const other = new OpenAiCompatibleProvider({ baseUrl: provider.describe().baseUrl, model: 'missing' });
    expect((await other.testConnection()).message).toContain('"missing" is not in the server\'s list');
  });

  it('explains CORS when the server cannot be reached', async () => {
    const { provider, server } = await setup([]);
    await server.close();
    const result = await provider.testConnection();
    expect(result.ok).toBe(false);
    expect(result.message).toContain('CORS');
    expect(result.message).toContain('OLLAMA_ORIGINS');
  });

  it('reports a wrong base URL plainly', async () => {
    const { baseUrl } = await setup([]);
    const provider = new OpenAiCompatibleProvider({ baseUrl: baseUrl.replace('/v1', '/nope'), model: 'm', maxRetries: 0 });
    const result = await provider.testConnection();
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/Not found \(HTTP 404\)/);
  });
});

describe('configuration', () => {
  it('rejects an empty base URL or model and strips trailing slashes', () => {
    expect(() => new OpenAiCompatibleProvider({ baseUrl: ' ', model: 'm' })).toThrow('base URL');
    expect(() => new OpenAiCompatibleProvider({ baseUrl: 'http://x/v1', model: '' })).toThrow('model name');
    const provider = new OpenAiCompatibleProvider({ baseUrl: 'http://x/v1//', model: 'm', apiKey: KEY });
    expect(provider.describe()).toMatchObject({ provider: 'openai-compatible', baseUrl: 'http://x/v1', model: 'm' });
    expect(JSON.stringify(provider.describe())).not.toContain(KEY);
  });
});
