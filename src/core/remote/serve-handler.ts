// `dsw serve` without a server: requests in, JSON or NDJSON out, through the core's use cases. The host (node:http
// in the CLI, anything else) reads the body, passes an AbortSignal that fires when the client goes away, and
// writes the response.
import { isAbortError } from '../abort/index.ts';
import { buildRetriever, type RetrievalResources, GqrRetriever, PIPELINE_KINDS, type PipelineSpec } from '../retrieval/index.ts';
import { embeddingModelKey, type EmbeddingModelInfo } from '../embedding/index.ts';
import type { CorpusStore } from '../storage/index.ts';
import { runQuerySet, searchCorpus } from '../use-cases/index.ts';
import {
  preparedToJson,
  SERVE_API_PREFIX,
  SERVE_MAX_DOCUMENTS,
  SERVE_MAX_EMBED_TEXTS,
  SERVE_MAX_K,
  SERVE_MAX_STREAMS,
  ServeError,
  type ServedCorpusInfo,
  type ServedEmbedResponse,
  type ServedSearchResponse,
  type ServedPrepareResult,
  type ServedRunResult,
  type ServeHealth,
  type ServeStreamLine,
} from './serve-protocol.ts';

/** One corpus the server holds: its stores and retrieval resources (index, vectors, query model). */
export interface ServedCorpus {
  info: ServedCorpusInfo;
  /** The corpus's id in `corpora` (the served id in `info` is the one clients see). */
  storeId: string;
  corpora: CorpusStore;
  resources: RetrievalResources;
  /** The model the corpus was embedded with, for `embed` (absent: the server has no model). */
  passageEmbedder?: PassageEmbedder;
}

/** Embeds document texts (the passage prefix applied) into pooled, L2-normalised vectors. */
export interface PassageEmbedder {
  readonly info: EmbeddingModelInfo;
  readonly maxTokens: number;
  embedTexts(texts: string[], kind: 'passage'): Promise<Float32Array>;
}

/** The corpora, or why there are none yet (the server listens while its corpus loads). */
export type ServedCorporaState = { ready: true; corpora: readonly ServedCorpus[] } | { ready: false; status: string };

export interface ServeHandlerOptions {
  corpora: readonly ServedCorpus[] | (() => ServedCorporaState);
  /** When set, every request but a CORS preflight needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Origins allowed to call from a browser (`*` for any). Requests without an Origin header are always served. */
  allowOrigins: readonly string[];
  /** Host names clients may address the server by, besides IP addresses and localhost (see `hostProblem`). */
  allowHosts?: readonly string[];
  /** Streamed requests served at once; more get 429 `busy`. Default SERVE_MAX_STREAMS. */
  maxStreams?: number;
}

export interface ServeRequest {
  method: string;
  /** Path and query string, e.g. `/api/v1/corpora/x/search`. */
  url: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /**
   * The body, or a reader the handler calls only after the Host, Origin and token checks passed. A reader rejects
   * with a ServeError (413 `too-large`, 400 `body-incomplete`) and never throws past the handler.
   */
  body: string | (() => Promise<string>);
  /** Aborts when the client disconnects: long runs stop. */
  signal: AbortSignal;
}

export type ServeResponse =
  | { status: number; headers: Record<string, string>; body: string }
  | { status: number; headers: Record<string, string>; stream: AsyncIterable<string> };

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const NDJSON_TYPE = { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' };

export function createServeHandler(options: ServeHandlerOptions): (request: ServeRequest) => Promise<ServeResponse> {
  const fixed = Array.isArray(options.corpora) ? new Map((options.corpora as readonly ServedCorpus[]).map((c) => [c.info.id, c])) : null;
  let seen: readonly ServedCorpus[] | null = null;
  let byId = new Map<string, ServedCorpus>();
  const state = (): { ready: true; byId: ReadonlyMap<string, ServedCorpus> } | { ready: false; status: string } => {
    if (fixed) return { ready: true, byId: fixed };
    const now = (options.corpora as () => ServedCorporaState)();
    if (!now.ready) return now;
    if (now.corpora !== seen) {
      seen = now.corpora;
      byId = new Map(now.corpora.map((c) => [c.info.id, c]));
    }
    return { ready: true, byId };
  };
  const streams = { active: 0, max: options.maxStreams ?? SERVE_MAX_STREAMS, embedding: Promise.resolve() as Promise<unknown> };
  const allowHosts = options.allowHosts ?? [];
  return async (request) => {
    const cors = corsHeaders(request.headers.origin, options.allowOrigins);
    try {
      const badHost = hostProblem(request.headers.host, allowHosts);
      if (badHost) throw new ServeError(403, 'host-not-allowed', badHost);
      if (request.headers.origin && !cors) {
        throw new ServeError(403, 'origin-not-allowed', `Origin ${request.headers.origin} may not call this server; start it with --allow-origin ${request.headers.origin}.`);
      }
      if (request.method === 'OPTIONS') return { status: 204, headers: { ...cors }, body: '' };
      if (options.token !== undefined) checkToken(request.headers.authorization, options.token);
      const response = await route(request, state(), streams);
      return { ...response, headers: { ...response.headers, ...cors } };
    } catch (error) {
      const served = asServeError(error);
      const extra: Record<string, string> = served.status === 503 || served.status === 429 ? { 'retry-after': '5' } : {};
      return { status: served.status, headers: { ...JSON_TYPE, ...extra, ...cors }, body: JSON.stringify({ error: served.body }) };
    }
  };
}

/**
 * The Host rule against DNS rebinding: a page whose name rebinds to 127.0.0.1 still sends its own name as Host, so
 * only names that cannot be rebound are served: IP addresses, `localhost` and `*.localhost`, and the names the
 * server was started with (`--allow-host`, `*` for any). A request without a Host header (HTTP/1.0 scripts; never a
 * browser) is served. Returns the reason for refusing, or null.
 */
export function hostProblem(host: string | undefined, allowHosts: readonly string[]): string | null {
  if (host === undefined || allowHosts.includes('*')) return null;
  const name = hostName(host);
  if (name === null) return `The Host header ${JSON.stringify(host.slice(0, 100))} is not a host name.`;
  if (isIpAddress(name) || name === 'localhost' || name.endsWith('.localhost')) return null;
  if (allowHosts.some((allowed) => allowed.toLowerCase() === name)) return null;
  return `This server is not served under the name "${name}" (it answers to IP addresses and localhost); if that name is yours, start it with --allow-host ${name}.`;
}

function hostName(host: string): string | null {
  const trimmed = host.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(trimmed);
  if (bracketed) return bracketed[1]!;
  const plain = /^([a-z0-9._-]+?)\.?(?::\d{1,5})?$/.exec(trimmed);
  return plain ? plain[1]! : null;
}

function isIpAddress(name: string): boolean {
  if (name.includes(':')) return /^[0-9a-f:.]+$/.test(name);
  const parts = name.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> | null {
  if (!origin) return {};
  if (!allowed.includes('*') && !allowed.includes(origin)) return null;
  return {
    'access-control-allow-origin': allowed.includes('*') ? '*' : origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

function checkToken(header: string | undefined, token: string): void {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim();
  if (given === undefined) throw new ServeError(401, 'unauthorized', 'This server needs a token: send Authorization: Bearer <token>.');
  if (!sameText(given, token)) throw new ServeError(401, 'unauthorized', 'The token was refused: it is not the one this server was started with.');
}

// Compares without stopping at the first difference, so timing tells nothing about the token.
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

function asServeError(error: unknown): ServeError {
  if (error instanceof ServeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isAbortError(error)) return new ServeError(499, 'internal', 'The request was cancelled.');
  return new ServeError(500, 'internal', message);
}

type CorporaNow = { ready: true; byId: ReadonlyMap<string, ServedCorpus> } | { ready: false; status: string };
interface StreamSlots {
  active: number;
  max: number;
  /** The last `embed` request: they run one after another (each uses every core). */
  embedding: Promise<unknown>;
}

async function route(request: ServeRequest, now: CorporaNow, streams: StreamSlots): Promise<ServeResponse> {
  const url = new URL(request.url, 'http://served.invalid');
  if (!url.pathname.startsWith(SERVE_API_PREFIX + '/')) throw new ServeError(404, 'not-found', `No such endpoint: ${url.pathname}; the API lives under ${SERVE_API_PREFIX}/ (see docs/serve-api.md).`);
  const parts = url.pathname.slice(SERVE_API_PREFIX.length + 1).split('/').map(decodeURIComponent);
  const { method } = request;
  const allow = (...methods: string[]) => {
    if (!methods.includes(method)) throw new ServeError(405, 'method-not-allowed', `${url.pathname} takes ${methods.join(' or ')}, not ${method}.`);
  };

  if (parts.length === 1 && parts[0] === 'health') {
    allow('GET');
    const health: ServeHealth = now.ready
      ? { ok: true, service: 'deep-search-workbench', apiVersion: 1, ready: true, status: 'ready', corpora: [...now.byId.keys()] }
      : { ok: true, service: 'deep-search-workbench', apiVersion: 1, ready: false, status: now.status, corpora: [] };
    return json(health);
  }
  if (!now.ready) throw new ServeError(503, 'not-ready', `The server is not ready yet (${now.status}); GET ${SERVE_API_PREFIX}/health says when it is.`);
  const { byId } = now;
  if (parts[0] !== 'corpora') throw new ServeError(404, 'not-found', `No such endpoint: ${url.pathname} (see docs/serve-api.md).`);
  if (parts.length === 1) {
    allow('GET');
    return json([...byId.values()].map((c) => c.info));
  }
  const corpus = byId.get(parts[1]!);
  if (!corpus) throw new ServeError(404, 'unknown-corpus', `This server holds no corpus "${parts[1]}"; it holds ${[...byId.keys()].map((id) => `"${id}"`).join(', ')}.`);
  const id = corpus.storeId;
  const action = parts.slice(2).join('/');
  switch (action) {
    case '':
      allow('GET');
      return json(corpus.info);
    case 'queries':
      allow('GET');
      return json(await corpus.corpora.getQueries(id));
    case 'qrels':
      allow('GET');
      return json(await corpus.corpora.getQrels(id));
    case 'documents': {
      allow('GET', 'POST');
      if (method === 'GET') {
        const limit = Number(url.searchParams.get('limit') ?? '100');
        if (!Number.isInteger(limit) || limit < 1 || limit > SERVE_MAX_DOCUMENTS) {
          throw new ServeError(400, 'bad-request', `limit must be a whole number from 1 to ${SERVE_MAX_DOCUMENTS}, got "${url.searchParams.get('limit')}".`);
        }
        return json(await corpus.corpora.listDocuments(id, { after: url.searchParams.get('after') ?? undefined, limit }));
      }
      const body = await parseBody(request);
      const ids = body.ids;
      if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) throw new ServeError(400, 'bad-request', 'Field "ids" must be an array of document ids (strings).');
      if (ids.length > SERVE_MAX_DOCUMENTS) throw new ServeError(413, 'too-large', `At most ${SERVE_MAX_DOCUMENTS} documents per request; got ${ids.length}.`);
      return json((await corpus.corpora.getDocuments(id, ids)).map((d) => d ?? null));
    }
    case 'search': {
      allow('POST');
      const body = await parseBody(request);
      const spec = specOf(body);
      const k = kOf(body, 10);
      if (typeof body.query !== 'string' || body.query.trim() === '') throw new ServeError(400, 'bad-request', 'Field "query" must be a non-empty string.');
      await buildOrReject(spec, corpus);
      const result = await searchCorpus({ corpusId: id, spec, query: body.query, k }, { corpora: corpus.corpora, resources: corpus.resources });
      return json({ hits: result.hits, elapsedMs: result.elapsedMs, config: { ...result.config } } satisfies ServedSearchResponse);
    }
    case 'run': {
      allow('POST');
      const body = await parseBody(request);
      const spec = specOf(body);
      const k = kOf(body, 100);
      await buildOrReject(spec, corpus);
      return stream<ServedRunResult>(request.signal, streams, async (progress, signal) => {
        const { record, run } = await runQuerySet(
          { corpusId: id, spec, k, name: 'served run' },
          { corpora: corpus.corpora, resources: corpus.resources },
          { onProgress: progress, signal },
        );
        return { rankings: Object.fromEntries(run), config: { ...record.config }, elapsedMs: record.elapsedMs ?? 0 };
      });
    }
    case 'gqr/prepare': {
      allow('POST');
      const body = await parseBody(request);
      const spec = specOf(body);
      if (spec.kind !== 'gqr') throw new ServeError(400, 'bad-spec', `gqr/prepare needs a gqr pipeline, got "${spec.kind}".`);
      const k = kOf(body, 10);
      const texts = body.texts;
      if (texts !== undefined && (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string' && t.trim() !== ''))) {
        throw new ServeError(400, 'bad-request', 'Field "texts" must be an array of non-empty strings.');
      }
      const queryIds = body.queryIds;
      if (queryIds !== undefined && queryIds !== null && (!Array.isArray(queryIds) || !queryIds.every((q) => typeof q === 'string'))) {
        throw new ServeError(400, 'bad-request', 'Field "queryIds" must be an array of query ids (strings) or null.');
      }
      const retriever = await buildOrReject(spec, corpus);
      if (!(retriever instanceof GqrRetriever)) throw new ServeError(400, 'bad-spec', 'Not a GQR pipeline.');
      const queries = texts
        ? (texts as string[]).map((text, i) => ({ id: `text-${i + 1}`, text }))
        : await selectedQueries(corpus, queryIds as string[] | null | undefined);
      return stream<ServedPrepareResult>(request.signal, streams, async (progress, signal) => {
        const started = performance.now();
        const prepared: ServedPrepareResult['prepared'] = [];
        for (const query of queries) {
          signal.throwIfAborted();
          prepared.push({ queryId: query.id, ...preparedToJson(await retriever.prepare(query.text, k, signal)) });
          progress(prepared.length, queries.length);
        }
        return { prepared, config: { ...retriever.config }, elapsedMs: performance.now() - started };
      });
    }
    case 'embed': {
      allow('POST');
      const embedder = corpus.passageEmbedder;
      if (!embedder) throw new ServeError(400, 'bad-request', 'This server has no embedding model: start it with --model <folder or id> to embed texts.');
      const body = await parseBody(request);
      const texts = body.texts;
      if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
        throw new ServeError(400, 'bad-request', 'Field "texts" must be a non-empty array of strings (document texts).');
      }
      if (texts.length > SERVE_MAX_EMBED_TEXTS) throw new ServeError(413, 'too-large', `At most ${SERVE_MAX_EMBED_TEXTS} texts per embed request; got ${texts.length}.`);
      const run = streams.embedding.then(async () => {
        request.signal.throwIfAborted();
        const started = performance.now();
        const flat = await embedder.embedTexts(texts as string[], 'passage');
        const dims = embedder.info.dimensions;
        const vectors = (texts as string[]).map((_, i) => Array.from(flat.subarray(i * dims, (i + 1) * dims)));
        return { model: embedder.info, modelKey: embeddingModelKey(embedder.info), maxTokens: embedder.maxTokens, vectors, elapsedMs: performance.now() - started } satisfies ServedEmbedResponse;
      });
      streams.embedding = run.catch(() => undefined);
      return json(await run);
    }
    default:
      throw new ServeError(404, 'not-found', `No such endpoint: ${url.pathname} (see docs/serve-api.md).`);
  }
}

async function selectedQueries(corpus: ServedCorpus, ids: readonly string[] | null | undefined) {
  const all = await corpus.corpora.getQueries(corpus.storeId);
  if (!ids) return all;
  const wanted = new Set(ids);
  const unknown = ids.filter((id) => !all.some((q) => q.id === id));
  if (unknown.length > 0) throw new ServeError(400, 'bad-request', `Unknown query id(s): ${unknown.slice(0, 5).join(', ')}.`);
  return all.filter((q) => wanted.has(q.id));
}

function json(value: unknown, status = 200): ServeResponse {
  return { status, headers: { ...JSON_TYPE }, body: JSON.stringify(value) };
}

async function parseBody(request: ServeRequest): Promise<Record<string, unknown>> {
  const text = typeof request.body === 'string' ? request.body : await request.body();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ServeError(400, 'bad-json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ServeError(400, 'bad-json', 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}

function specOf(body: Record<string, unknown>): PipelineSpec {
  const spec = body.spec as { kind?: unknown } | undefined;
  if (!spec || typeof spec !== 'object') throw new ServeError(400, 'bad-spec', 'Field "spec" must be a pipeline spec object, e.g. {"kind":"bm25","params":{"k1":0.9,"b":0.4,"d":0,"termCountBoost":false}}.');
  if (!(PIPELINE_KINDS as readonly unknown[]).includes(spec.kind)) {
    throw new ServeError(400, 'bad-spec', `Unknown pipeline kind ${JSON.stringify(spec.kind)}; known: ${PIPELINE_KINDS.join(', ')}.`);
  }
  return spec as PipelineSpec;
}

function kOf(body: Record<string, unknown>, fallback: number): number {
  const k = body.k ?? fallback;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) throw new ServeError(400, 'bad-request', `Field "k" must be a whole number from 1 to ${SERVE_MAX_K}, got ${JSON.stringify(k)}.`);
  if (k > SERVE_MAX_K) throw new ServeError(400, 'k-too-large', `k ${k} is larger than this server allows (${SERVE_MAX_K}).`);
  return k;
}

// Builds the pipeline once before answering, so a bad spec is a 400 with the core's words, not a failed stream.
async function buildOrReject(spec: PipelineSpec, corpus: ServedCorpus) {
  try {
    return await buildRetriever(spec, corpus.resources);
  } catch (error) {
    throw new ServeError(400, 'bad-spec', `The pipeline cannot run here: ${(error as Error).message}`);
  }
}

/** NDJSON: progress lines while `work` runs, then its result (or an error line). Stops when the client goes away. */
function stream<T>(
  clientSignal: AbortSignal,
  slots: StreamSlots,
  work: (progress: (done: number, total: number) => void, signal: AbortSignal) => Promise<T>,
): ServeResponse {
  if (slots.active >= slots.max) {
    throw new ServeError(429, 'busy', `This server already streams ${slots.active} runs or preparations (its limit); try again when one has finished.`);
  }
  slots.active++;
  let released = false;
  const release = () => {
    if (!released) slots.active--;
    released = true;
  };
  // A client that goes away before the stream is read still frees its slot.
  clientSignal.addEventListener('abort', release, { once: true });
  async function* lines(): AsyncGenerator<string> {
    try {
      yield* streamLines();
    } finally {
      release();
    }
  }
  async function* streamLines(): AsyncGenerator<string> {
    const queue: string[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    const push = (line: ServeStreamLine<T>) => {
      queue.push(JSON.stringify(line) + '\n');
      wake?.();
    };
    let lastProgress = 0;
    const task = work((done, total) => {
      const now = Date.now();
      if (done < total && now - lastProgress < 50) return;
      lastProgress = now;
      push({ type: 'progress', done, total });
    }, clientSignal)
      .then((result) => push({ type: 'result', result }))
      .catch((error) => {
        const served = asServeError(error);
        push({ type: 'error', status: served.status, error: served.body });
      })
      .finally(() => {
        finished = true;
        wake?.();
      });
    while (true) {
      if (queue.length > 0) {
        yield queue.shift()!;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    await task;
  }
  return { status: 200, headers: { ...NDJSON_TYPE }, stream: lines() };
}
