import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiTestServer, type OpenAiTestServerOptions } from './openai-test-server.ts';

const servers: OpenAiTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: OpenAiTestServerOptions = {}) {
  const server = new OpenAiTestServer(options);
  servers.push(server);
  return { server, base: await server.start() };
}

const post = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const dataLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));

describe('OpenAiTestServer', () => {
  it('listens on 127.0.0.1 and returns a /v1 base URL', async () => {
    const { base } = await start();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('answers non-streaming requests with a chat completion', async () => {
    const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
    const { base } = await start({ replies: [{ content: 'hi', reasoning: 'r', usage }] });
    const res = await post(base, { model: 'm', messages: [] });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi', reasoning_content: 'r' }, finish_reason: 'stop' }],
      usage,
    });
  });

  it('streams SSE chunks: role, reasoning, content pieces, finish, usage only when asked, [DONE]', async () => {
    const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
    const { base } = await start({ replies: [{ content: 'abcd', reasoning: 'xy', chunkChars: 2, usage }, { content: 'z', usage }] });
    const res = await post(base, { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const lines = dataLines(await res.text());
    expect(lines.at(-1)).toBe('[DONE]');
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l));
    expect(chunks.map((c) => c.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'xy' },
      { content: 'ab' },
      { content: 'cd' },
      {},
      undefined,
    ]);
    expect(chunks[4].choices[0].finish_reason).toBe('stop');
    expect(chunks[5]).toMatchObject({ choices: [], usage });
    const plain = dataLines(await (await post(base, { model: 'm', messages: [], stream: true })).text());
    expect(plain.some((l) => l.includes('usage'))).toBe(false);
  });

  it('records requests and uses the respond function when the queue is empty', async () => {
    const { server, base } = await start({
      respond: (req) => ({ content: `echo ${req.body.messages[0].content}` }),
    });
    const res = await post(base, { model: 'm', messages: [{ role: 'user', content: 'ping' }] }, { Authorization: 'Bearer k' });
    expect((await res.json()).choices[0].message.content).toBe('echo ping');
    const [recorded] = server.chatRequests();
    expect(recorded.headers.authorization).toBe('Bearer k');
    expect(recorded.body.messages[0].content).toBe('ping');
    expect(recorded.rawBody).toContain('"ping"');
  });

  it('says so when no scripted reply is left', async () => {
    const { base } = await start();
    const res = await post(base, { model: 'm', messages: [] });
    expect(res.status).toBe(500);
    expect((await res.json()).error.message).toMatch(/no scripted reply/);
  });

  it('injects HTTP errors with Retry-After', async () => {
    const { base } = await start({ replies: [{ status: 429, retryAfter: '3', errorMessage: 'busy' }] });
    const res = await post(base, { model: 'm', messages: [] });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toMatchObject({ error: { message: 'busy' } });
  });

  it('delays a reply', async () => {
    const { base } = await start({ replies: [{ content: 'late', delayMs: 80 }] });
    const started = performance.now();
    await (await post(base, { model: 'm', messages: [] })).json();
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('breaks a stream by destroying the socket', async () => {
    const { base } = await start({ replies: [{ content: 'abcdef', chunkChars: 1, breakAfterEvents: 2 }] });
    const res = await post(base, { model: 'm', messages: [], stream: true });
    await expect(res.text()).rejects.toThrow();
  });

  it('sends malformed SSE on request', async () => {
    const { base } = await start({ replies: [{ content: 'a', malformedAfterEvents: 1 }] });
    const lines = dataLines(await (await post(base, { model: 'm', messages: [], stream: true })).text());
    expect(() => lines.forEach((l) => l !== '[DONE]' && JSON.parse(l))).toThrow();
  });

  it('lists models and answers CORS preflights', async () => {
    const { base } = await start({ models: ['a', 'b'] });
    const models = await (await fetch(`${base}/models`)).json();
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(['a', 'b']);
    const preflight = await fetch(`${base}/chat/completions`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
  });

  it('close() stops accepting connections', async () => {
    const { server, base } = await start();
    await server.close();
    await expect(fetch(`${base}/models`)).rejects.toThrow();
  });
});
