// A scripted OpenAI-compatible chat server on 127.0.0.1 for unit and browser tests. Plain Node: no test-framework
// imports, so Vitest and Playwright can both use it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Token counts as the OpenAI API reports them. */
export interface WireUsage {
  /** Tokens of the prompt. */
  prompt_tokens: number;
  /** Tokens generated. */
  completion_tokens: number;
  /** Their sum. */
  total_tokens: number;
}

/** How the server answers one chat-completions request. Every field is optional. */
export interface ScriptedReply {
  /** Answer text (default ''). */
  content?: string;
  /** Reasoning text, sent in `reasoningField` before the content. */
  reasoning?: string;
  /** Field that carries the reasoning (default `reasoning_content`). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Usage to report: in the last chunk when the client asked for it (streaming), or in the body. */
  usage?: WireUsage;
  /** `finish_reason` (default `stop`). */
  finishReason?: string;
  /** Characters per streamed delta (default: the whole text in one delta). */
  chunkChars?: number;
  /** Split the streamed bytes into separate writes of this many bytes (exercises parsing across chunk boundaries). */
  writeBytes?: number;
  /** Pause between two writes of a stream, ms (default 0). */
  writeDelayMs?: number;
  /** Wait this long before answering, ms (e.g. longer than the client's timeout). */
  delayMs?: number;
  /** Answer with this HTTP error status and an OpenAI-style error body instead. */
  status?: number;
  /** Message of the error body (default `scripted failure`). */
  errorMessage?: string;
  /** `Retry-After` header of an error response. */
  retryAfter?: string;
  /** Streaming: destroy the socket after this many SSE events. */
  breakAfterEvents?: number;
  /** Streaming: send a line that is not JSON after this many events. */
  malformedAfterEvents?: number;
  /** Streaming: leave out `data: [DONE]` (and the finish reason when `finishReason` is ''). */
  omitDone?: boolean;
  /** Streaming: end lines with CRLF. */
  crlf?: boolean;
  /** Answer 200 with this body and content type instead of a chat completion (e.g. a proxy's HTML page). */
  raw?: { contentType?: string; body: string };
  /** vLLM's `stop_reason`: the stop sequence that ended the reply (set by the server when it cut at one). */
  stopReason?: string;
}

/** A request as the server received it. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** Path with query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received. */
  rawBody: string;
  /** The body parsed as JSON (undefined when empty or not JSON); `any` so tests can read fields directly. */
  body: any;
  /** A streamed reply: when its first and last bytes were written (Date.now()). */
  streamed?: { startedAt: number; endedAt: number };
}

/** How replies are chosen: a queue (consumed in order) and/or a function of the request. */
export interface OpenAiTestServerOptions {
  /** Replies for successive chat requests. */
  replies?: ScriptedReply[];
  /** Used when the queue is empty. */
  respond?: (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
  /** Model ids listed by `/v1/models` (default `['test-model']`). */
  models?: string[];
  /** Send replies whole even when the request has stop sequences (a server that ignores `stop`). */
  ignoreStop?: boolean;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, HTTP-Referer, X-Title',
  'Access-Control-Max-Age': '600',
  'Access-Control-Expose-Headers': 'Retry-After, retry-after-ms',
};

/** A real HTTP server speaking the OpenAI chat-completions protocol, with scripted replies and failures. */
export class OpenAiTestServer {
  /** Every request received, in order (including preflights and model lists). */
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedReply[];
  private readonly options: OpenAiTestServerOptions;
  private server: http.Server | undefined;
  private counter = 0;

  constructor(options: OpenAiTestServerOptions = {}) {
    this.options = options;
    this.queue = [...(options.replies ?? [])];
  }

  /** Starts listening on 127.0.0.1 (free port); resolves with the base URL, e.g. `http://127.0.0.1:PORT/v1`. */
  async start(): Promise<string> {
    const server = http.createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'application/json', ...CORS_HEADERS });
          res.end(JSON.stringify({ error: { message: `test server error: ${String(err)}` } }));
        } else {
          res.destroy();
        }
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Stops the server and drops open connections. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Appends replies to the queue. */
  enqueue(...replies: ScriptedReply[]): void {
    this.queue.push(...replies);
  }

  /** The chat-completions requests received, in order. */
  chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: { ...req.headers },
      rawBody,
      body,
    };
    this.requests.push(recorded);
    const path = (req.url ?? '').split('?')[0];

    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const models = this.options.models ?? ['test-model'];
      sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'test' })) });
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
      return;
    }
    if (!body || typeof body !== 'object') {
      sendJson(res, 400, { error: { message: 'body is not JSON' } });
      return;
    }

    const scripted = this.queue.shift() ?? (this.options.respond ? await this.options.respond(recorded) : undefined);
    const reply = scripted && !this.options.ignoreStop ? cutAtStop(scripted, (body as { stop?: unknown }).stop) : scripted;
    if (!reply) {
      sendJson(res, 500, { error: { message: 'the test server has no scripted reply left' } });
      return;
    }
    if (reply.delayMs) {
      const alive = await waitUnlessClosed(res, reply.delayMs);
      if (!alive) return;
    }
    if (reply.status !== undefined && reply.status >= 400) {
      const headers: Record<string, string> = {};
      if (reply.retryAfter !== undefined) headers['Retry-After'] = reply.retryAfter;
      sendJson(res, reply.status, { error: { message: reply.errorMessage ?? 'scripted failure', type: 'test' } }, headers);
      return;
    }
    if (reply.raw) {
      const headers: Record<string, string> = { ...CORS_HEADERS };
      if (reply.raw.contentType !== undefined) headers['Content-Type'] = reply.raw.contentType;
      res.writeHead(200, headers);
      res.end(reply.raw.body);
      return;
    }
    const request = body as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
    const id = `chatcmpl-test-${++this.counter}`;
    const model = request.model ?? 'test-model';
    if (request.stream) {
      const startedAt = Date.now();
      await this.stream(res, reply, id, model, request.stream_options?.include_usage === true);
      recorded.streamed = { startedAt, endedAt: Date.now() };
    } else {
      const message: Record<string, unknown> = { role: 'assistant', content: reply.content ?? '' };
      if (reply.reasoning) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning;
      const out: Record<string, unknown> = {
        id,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [{ index: 0, message, finish_reason: reply.finishReason ?? 'stop', ...(reply.stopReason ? { stop_reason: reply.stopReason } : {}) }],
      };
      if (reply.usage) out.usage = reply.usage;
      sendJson(res, 200, out);
    }
  }

  private async stream(
    res: http.ServerResponse,
    reply: ScriptedReply,
    id: string,
    model: string,
    includeUsage: boolean,
  ): Promise<void> {
    const eol = reply.crlf ? '\r\n' : '\n';
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: 0,
        model,
        choices: [{ index: 0, delta, finish_reason: finish, ...(finish && reply.stopReason ? { stop_reason: reply.stopReason } : {}) }],
        ...extra,
      });
    const events: string[] = [chunk({ role: 'assistant', content: '' }, null)];
    const field = reply.reasoningField ?? 'reasoning_content';
    for (const piece of pieces(reply.reasoning ?? '', reply.chunkChars)) events.push(chunk({ [field]: piece }, null));
    for (const piece of pieces(reply.content ?? '', reply.chunkChars)) events.push(chunk({ content: piece }, null));
    const finish = reply.finishReason ?? 'stop';
    if (finish !== '') events.push(chunk({}, finish));
    if (includeUsage && reply.usage) {
      events.push(JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: reply.usage }));
    }
    if (!reply.omitDone) events.push('[DONE]');

    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      ...CORS_HEADERS,
    });
    const write = async (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      const size = reply.writeBytes && reply.writeBytes > 0 ? reply.writeBytes : bytes.length;
      for (let i = 0; i < bytes.length; i += size) {
        if (res.destroyed) return;
        await new Promise<void>((resolve) => res.write(bytes.subarray(i, i + size), () => resolve()));
        if (reply.writeDelayMs) await sleep(reply.writeDelayMs);
        else if (reply.writeBytes) await new Promise((resolve) => setImmediate(resolve)); // let each piece go out alone
      }
    };
    for (let i = 0; i < events.length; i++) {
      if (reply.breakAfterEvents !== undefined && i === reply.breakAfterEvents) {
        await sleep(10); // let the events already written reach the client first
        res.socket?.destroy();
        return;
      }
      if (reply.malformedAfterEvents !== undefined && i === reply.malformedAfterEvents) {
        await write(`data: {"id": "broken", "choices": [${eol}${eol}`);
      }
      await write(`data: ${events[i]}${eol}${eol}`);
    }
    res.end();
  }
}

function pieces(text: string, size: number | undefined): string[] {
  if (text === '') return [];
  const chars = Array.from(text); // never split a surrogate pair: the JSON would be invalid
  if (!size || size <= 0) return [text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...CORS_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits `ms`; resolves false early if the client went away. */
function waitUnlessClosed(res: http.ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

/**
 * The reply cut before the first stop sequence of the request it contains, as llama.cpp's and vLLM's servers do: the
 * stop string left out, finish reason `stop`, and vLLM's `stop_reason` naming it.
 */
function cutAtStop(reply: ScriptedReply, stop: unknown): ScriptedReply {
  const stops = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop.filter((x): x is string => typeof x === 'string' && x !== '') : [];
  const content = reply.content ?? '';
  let at = -1;
  let matched = '';
  for (const s of stops) {
    const i = content.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) [at, matched] = [i, s];
  }
  return at < 0 ? reply : { ...reply, content: content.slice(0, at), finishReason: 'stop', stopReason: matched };
}
