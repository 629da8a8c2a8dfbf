// Replies that never end, or end with nothing: the provider ends the call with words (real HTTP on loopback).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiTestServer } from '../../test-support/openai-test-server.ts';
import { LlmError } from './errors.ts';
import { OpenAiCompatibleProvider } from './openai-provider.ts';

const ask = { messages: [{ role: 'user' as const, content: 'Hello?' }] };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A server whose stream never ends: `beat` writes one piece every few ms until the client goes away. */
async function endlessServer(beat: (i: number) => string): Promise<{ baseUrl: string; disconnected: Promise<void> }> {
  let resolveGone!: () => void;
  const disconnected = new Promise<void>((r) => (resolveGone = r));
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const timer = setInterval(() => res.write(beat(i++)), 2);
    res.on('close', () => {
      clearInterval(timer);
      resolveGone();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, disconnected };
}

const delta = (text: string) => `data: ${JSON.stringify({ choices: [{ delta: { content: text }, finish_reason: null }] })}\n\n`;

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error('expected the call to fail');
}

describe('a streamed reply that runs on (issue case 6)', () => {
  it('is ended past the character bound, with words, and the connection is closed', async () => {
    const { baseUrl, disconnected } = await endlessServer(() => delta('word '.repeat(20)));
    const provider = new OpenAiCompatibleProvider({ baseUrl, model: 'm', maxResponseChars: 5000, maxRetries: 0 });
    const error = await failure(provider.complete(ask));
    expect(error.kind).toBe('stream');
    expect(error.message).toContain('ran past 5000 characters without ending');
    await disconnected;
  });

  it('is ended when the reported usage passes max_tokens', async () => {
    const usage = (i: number) => `data: ${JSON.stringify({ choices: [{ delta: { content: 'x' }, finish_reason: null }], usage: { prompt_tokens: 1, completion_tokens: i + 1, total_tokens: i + 2 } })}\n\n`;
    const { baseUrl } = await endlessServer(usage);
    const provider = new OpenAiCompatibleProvider({ baseUrl, model: 'm', maxTokens: 20, maxRetries: 0 });
    const error = await failure(provider.complete(ask));
    expect(error.message).toContain('ran past max_tokens (21 completion tokens reported, 20 asked)');
  });

  it('is ended when only keep-alives and empty chunks arrive for longer than the idle timeout', async () => {
    const { baseUrl, disconnected } = await endlessServer((i) => (i % 2 ? ': keep-alive\n\n' : delta('')));
    const provider = new OpenAiCompatibleProvider({ baseUrl, model: 'm', idleTimeoutMs: 150, maxRetries: 0 });
    const error = await failure(provider.complete(ask));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('brought no new text for 0.15 s');
    await disconnected;
  });

  it('saves both limits with the run through describe()', () => {
    const provider = new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxResponseChars: 1234, idleTimeoutMs: 5000 });
    expect(provider.describe()).toEqual({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', streamLimits: { maxResponseChars: 1234, idleTimeoutMs: 5000 } });
    expect(new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }).describe().streamLimits).toEqual({ maxResponseChars: 16_000_000, idleTimeoutMs: 120_000 });
    expect(new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', stream: false }).describe().streamLimits).toBeUndefined();
  });
});

describe('a reply with no choice (issue case 8)', () => {
  async function serverWith(contentType: string, body: string) {
    const server = new OpenAiTestServer({ replies: [{ raw: { contentType, body } }] });
    closers.push(() => server.close());
    return server.start();
  }

  it('is an error when streamed, not an empty answer', async () => {
    const baseUrl = await serverWith('text/event-stream', 'data: {"choices": []}\n\ndata: [DONE]\n\n');
    const error = await failure(new OpenAiCompatibleProvider({ baseUrl, model: 'm', maxRetries: 0 }).complete(ask));
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('"choices": []');
  });

  it('is an error as a JSON body too', async () => {
    const baseUrl = await serverWith('application/json', '{"choices": []}');
    const error = await failure(new OpenAiCompatibleProvider({ baseUrl, model: 'm', maxRetries: 0, stream: false }).complete(ask));
    expect(error.kind).toBe('protocol');
  });

  it('a usage-only last chunk after real choices is still a normal reply', async () => {
    const body = `${delta('Paris.')}data: {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}\n\ndata: [DONE]\n\n`;
    const baseUrl = await serverWith('text/event-stream', body);
    const reply = await new OpenAiCompatibleProvider({ baseUrl, model: 'm', maxRetries: 0 }).complete(ask);
    expect(reply.content).toBe('Paris.');
    expect(reply.usage?.completionTokens).toBe(2);
  });
});
