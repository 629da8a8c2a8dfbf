import http from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import {
  abortError,
  createServeHandler,
  NUMERIC_RULES,
  SERVE_API_PREFIX,
  SERVE_MAX_BODY_BYTES,
  SERVE_MAX_STREAMS,
  ServeError,
  type RetrievalResources,
  type ServedCorporaState,
  type ServedCorpus,
} from '../../core/index.ts';
import { CliError, type CliCommand, type CliIo } from '../io.ts';
import { keepEmptyHelp, KEEP_EMPTY_OPTIONS } from '../keep-empty-option.ts';
import { loadDataset } from '../load-dataset.ts';
import { embedDataset } from '../pipeline-options.ts';
import { numberOption, parseParams } from '../params.ts';
import { parseCommandArgs } from './eval.ts';
import { clusterEmbeddingSets, clusterResources, openClusterCorpus, openSearchHelp, OPENSEARCH_OPTIONS, type ClusterCorpus } from '../cluster-corpus.ts';

/** Origins of the app served by `npm run dev` and `npm start` (vite dev and preview). */
export const DEFAULT_APP_ORIGINS = ['http://127.0.0.1:5173', 'http://localhost:5173', 'http://127.0.0.1:4173', 'http://localhost:4173'];

export const serveHelp = `Usage: dsw serve --dataset <dir> [--model <folder or id>] [--port 8790] [--host 127.0.0.1]
                 [--token <token>] [--allow-origin <origin> ...] [--allow-host <name> ...] [--max-streams 4]
                 [--vector-cache <dir>]
                 [--stream-documents [--spool-dir <dir>]] [--keep-empty-documents]
       dsw serve --opensearch <url> --index <name> [--model <folder>] [--hnsw-ef-search <n>] [--port …] [--host …] …

Loads a dataset into the Node core (streamed; compact BM25 index; vectors when --model is given) and serves
search, query-set runs, GQR preparation, documents, queries and qrels as HTTP+JSON under ${SERVE_API_PREFIX}
(docs/serve-api.md). In the app: Corpora → "Connect to a workbench server".
  --dataset       BEIR folder (or any loadable folder or file)
  --model         embedding model for dense, fusion and GQR pipelines: a model folder (e.g.
                  public/models/tiny-bert) or a model id in --models-dir; every document is embedded at start
  --models-dir    folder of model folders for --model ids (default public/models)
  --port          port to listen on (default 8790; 0 picks a free one)
  --host          address to bind (default 127.0.0.1); any address other than loopback needs --token
  --token         clients must send Authorization: Bearer <token>
  --allow-origin  a browser origin allowed to call (repeatable; * for any). Default: the app's dev and
                  preview origins (${DEFAULT_APP_ORIGINS.join(', ')})
  --allow-host    a host name clients (or a reverse proxy) address this server by; IP addresses and localhost
                  are always allowed, any other name is refused (against DNS rebinding). Repeatable; * for any
  --max-streams   query-set runs and GQR preparations streamed at once (default ${SERVE_MAX_STREAMS}); more get 429 busy
  --param         analyzer setting of the BM25 index, repeatable: lowercase, stopWords, stemming
  --vector-cache  folder where --model's document vectors are kept between starts, keyed by the model's files, the
                  dense settings and the corpus texts (as in dsw run and dsw sweep), so the next start does not embed again
  --stream-documents  keep no document in memory: while loading, documents are copied to a spool file
                  (one JSON line each; the corpus's size on disk) and each result shown is read back from it
  --spool-dir     folder for that spool file (default the OS temp folder); it is removed when the server stops
${keepEmptyHelp(14)}
Limits: request headers within 10 s, the whole request within 30 s, bodies up to 1 MiB. One JSON access-log line
per request on stderr (method, path, status, ms).
${openSearchHelp()}Stop it with Ctrl-C.
`;

export interface ServeOptions {
  dataset: string;
  /** A corpus in OpenSearch served in place of `dataset` (nothing is loaded; every call goes to the cluster). */
  cluster?: ClusterCorpus;
  model?: string;
  modelsDir?: string;
  port: number;
  host: string;
  token?: string;
  allowOrigins: string[];
  analyzerParams?: Record<string, string | number | boolean>;
  streamDocuments?: boolean;
  /** Folder of the --stream-documents spool file (default the OS temp folder). */
  spoolDir?: string;
  /** Keep documents whose text is empty, so their judgements stay (`--keep-empty-documents`). */
  keepEmptyDocuments?: boolean;
  /** Folder where document vectors are kept between starts (as in dsw run and dsw sweep). */
  vectorCache?: string;
  /** Host names clients may use besides IP addresses and localhost (the DNS-rebinding rule; `*` for any). */
  allowHosts?: string[];
  /** Streamed runs and preparations served at once (default SERVE_MAX_STREAMS). */
  maxStreams?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Called once the port is open, before the corpus loads; loading waits for it. */
  onListening?: (url: string) => void | Promise<void>;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8790 */
  url: string;
  corpus: ServedCorpus;
  close(): Promise<void>;
}

/** How long a client may take to send its headers, and its whole request (not the answer), by default. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Listens at once (GET /health says "loading the corpus" until it is ready; other endpoints answer 503), loads the
 * dataset, and resolves once the corpus is served.
 */
export async function startServer(options: ServeOptions, io: CliIo): Promise<RunningServer> {
  if (!LOOPBACK.has(options.host) && !options.token) {
    throw new CliError(`Binding ${options.host} exposes the corpus beyond this machine: give --token <token> (clients send Authorization: Bearer <token>)`);
  }
  let state: ServedCorporaState = { ready: false, status: 'loading the corpus' };
  const handle = createServeHandler({
    corpora: () => state,
    token: options.token,
    allowOrigins: options.allowOrigins,
    allowHosts: options.allowHosts,
    maxStreams: options.maxStreams,
  });
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout);
  const server = http.createServer({ requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1000, headersTimeout / 4)) }, (req, res) =>
    answer(req, res, handle, io).catch((error: unknown) => lastResort(res, error, io)),
  );
  server.keepAliveTimeout = 5000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, io));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new CliError(error.code === 'EADDRINUSE' ? `Port ${options.port} on ${options.host} is in use; choose another with --port` : error.message)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as { port: number };
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${address.port}`;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  let loaded: { corpus: ServedCorpus; closeDataset: () => Promise<void> };
  try {
    await options.onListening?.(url);
    loaded = await loadServedCorpus(options, io);
  } catch (error) {
    await stopListening();
    throw error;
  }
  state = { ready: true, corpora: [loaded.corpus] };
  return {
    url,
    corpus: loaded.corpus,
    close: async () => {
      await stopListening();
      await loaded.closeDataset();
    },
  };
}

async function loadServedCorpus(options: ServeOptions, io: CliIo): Promise<{ corpus: ServedCorpus; closeDataset: () => Promise<void> }> {
  if (options.cluster) return { corpus: servedClusterCorpus(options.cluster, options, io), closeDataset: async () => undefined };
  const params = options.analyzerParams ?? {};
  const analyzer = Object.keys(params).length > 0 ? (await import('../pipeline-options.ts')).analyzerFromParams(params) : undefined;
  const started = performance.now();
  if (options.streamDocuments && options.model) throw new CliError('--model embeds every document, which --stream-documents does not keep; use one or the other');
  if (options.spoolDir !== undefined && !options.streamDocuments) throw new CliError('--spool-dir is where --stream-documents keeps its spool file; give --stream-documents too');
  const dataset = await loadDataset(options.dataset, io, { analyzer, documents: options.streamDocuments ? 'spool' : 'memory', spoolDir: options.spoolDir, keepEmptyDocuments: options.keepEmptyDocuments });
  io.err(`Loaded ${dataset.corpus.documentCount} documents, ${dataset.corpus.queryCount} queries in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const resources: RetrievalResources = { bm25Index: async () => dataset.index };
  const embeddingSets = [];
  let passageEmbedder: ServedCorpus['passageEmbedder'];
  if (options.model) {
    const { modelKey, index, set, embedder } = await embedDataset(dataset, {}, io, { model: options.model, modelsDir: options.modelsDir, vectorCache: options.vectorCache });
    resources.denseIndex = async (key) => {
      if (key !== modelKey) throw new Error(`This server has no vectors for model key "${key}"; it has "${modelKey}".`);
      return index;
    };
    embeddingSets.push({ ...set, corpusId: servedId(options.dataset) });
    passageEmbedder = embedder;
  }
  const record = dataset.corpus;
  const corpus: ServedCorpus = {
    storeId: record.id,
    corpora: dataset.store,
    resources,
    ...(passageEmbedder ? { passageEmbedder } : {}),
    info: {
      id: servedId(options.dataset),
      name: record.name,
      documentCount: record.documentCount,
      queryCount: record.queryCount,
      qrelCount: record.qrelCount,
      questionCount: record.questionCount,
      analyzer: record.analyzer,
      embeddingSets,
    },
  };
  return { corpus, closeDataset: dataset.close };
}

/** A corpus in OpenSearch as the server's one corpus; its id is the index name. */
function servedClusterCorpus(cluster: ClusterCorpus, options: ServeOptions, io: CliIo): ServedCorpus {
  const { corpus } = cluster;
  return {
    storeId: cluster.index,
    corpora: cluster.store,
    resources: clusterResources(cluster, io, { model: options.model, modelsDir: options.modelsDir }),
    info: {
      id: cluster.index,
      name: corpus.name,
      documentCount: corpus.documentCount,
      queryCount: corpus.queryCount,
      qrelCount: corpus.qrelCount,
      questionCount: corpus.questionCount,
      analyzer: corpus.analyzer,
      // Dense pipelines need the model here to embed queries: without --model the set is not offered.
      embeddingSets: options.model ? clusterEmbeddingSets(cluster, cluster.index) : [],
    },
  };
}

/** The id clients see: the dataset folder's name, so it stays the same across restarts. */
function servedId(dataset: string): string {
  return path.basename(path.resolve(dataset)).replace(/[^A-Za-z0-9._-]+/g, '-') || 'corpus';
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, handle: ReturnType<typeof createServeHandler>, io: CliIo): Promise<void> {
  const started = performance.now();
  const path = (req.url ?? '/').split('?')[0]!;
  // One line per request: never the query string, a header or the body (tokens and queries stay out of logs).
  res.once('close', () => accessLog(io, { method: req.method ?? '?', path, status: res.statusCode, ms: performance.now() - started }));
  // A reset connection must not become an uncaught 'error' event.
  req.on('error', () => {});
  res.on('error', () => {});
  const controller = new AbortController();
  // 'close' on the response before it finished: the client went away; a running stream stops.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(abortError('The client disconnected'));
  });
  const body = bodyReader(req);
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
  const response = await handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers, body: body.read, signal: controller.signal });
  // A body left unread (refused before reading, or too large) is not drained: the connection closes after the answer.
  if (!body.complete() && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined)) res.setHeader('connection', 'close');
  if (res.destroyed) return;
  if ('body' in response) {
    res.writeHead(response.status, { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) });
    res.end(response.body);
    return;
  }
  res.writeHead(response.status, response.headers);
  try {
    for await (const line of response.stream) {
      if (controller.signal.aborted) break;
      res.write(line);
    }
  } catch (error) {
    io.err(`dsw serve: ${(error as Error).message}\n`);
  }
  res.end();
}

/** Reads the request body once, when the handler asks; rejects with a ServeError, never with a stream error. */
function bodyReader(req: http.IncomingMessage): { read: () => Promise<string>; complete: () => boolean } {
  let reading: Promise<string> | null = null;
  let complete = false;
  const read = () =>
    (reading ??= new Promise<string>((resolve, reject) => {
      const tooLarge = () => new ServeError(413, 'too-large', `The request body is larger than ${SERVE_MAX_BODY_BYTES} bytes.`);
      if (Number(req.headers['content-length']) > SERVE_MAX_BODY_BYTES) return reject(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (error: ServeError) => {
        req.removeListener('data', onData);
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > SERVE_MAX_BODY_BYTES) fail(tooLarge());
        else chunks.push(chunk);
      };
      req.on('data', onData);
      req.once('end', () => {
        complete = true;
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      req.once('error', (error) => fail(new ServeError(400, 'body-incomplete', `The request body ended before it was complete (${error.message}).`)));
      req.once('close', () => {
        if (!req.complete) fail(new ServeError(400, 'body-incomplete', 'The request body ended before it was complete (the client closed the connection).'));
      });
    }));
  return { read, complete: () => complete };
}

/** Anything that escaped the handler: a JSON 500 if nothing was sent yet, else the connection is dropped. */
function lastResort(res: http.ServerResponse, error: unknown, io: CliIo): void {
  io.err(`dsw serve: ${(error as Error)?.message ?? String(error)}\n`);
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify({ error: { code: 'internal', message: (error as Error)?.message ?? String(error) } }));
}

/** Requests Node refuses before the handler (bad syntax, headers too large, too slow): answered as JSON too. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, io: CliIo): void {
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'timeout', `The request was not received within the server's time limit.`]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'too-large', 'The request headers are too large.']
        : [400, 'bad-request', `The request is not valid HTTP (${error.code ?? error.message}).`];
  if (error.code !== 'ECONNRESET' && socket.writable && (socket as Duplex & { bytesWritten?: number }).bytesWritten === 0) {
    const body = JSON.stringify({ error: { code, message } });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    accessLog(io, { method: '-', path: '-', status, ms: 0 });
  }
  socket.destroy();
}

function accessLog(io: CliIo, entry: { method: string; path: string; status: number; ms: number }): void {
  io.err(JSON.stringify({ time: new Date().toISOString(), method: entry.method, path: entry.path.slice(0, 300), status: entry.status, ms: Math.round(entry.ms * 10) / 10 }) + '\n');
}

export const serveCommand: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      model: { type: 'string' },
      'models-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'allow-host': { type: 'string', multiple: true },
      'max-streams': { type: 'string' },
      param: { type: 'string', multiple: true },
      'stream-documents': { type: 'boolean', default: false },
      'vector-cache': { type: 'string' },
      'spool-dir': { type: 'string' },
      ...KEEP_EMPTY_OPTIONS,
      ...OPENSEARCH_OPTIONS,
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(serveHelp);
    return 0;
  }
  const cluster = await openClusterCorpus(values);
  if (!values.dataset && !cluster) throw new CliError('dsw serve needs --dataset <dir> (or --opensearch <url> --index <name>)');
  if (cluster && (values['stream-documents'] || values['vector-cache'] || values.param || values['keep-empty-documents'])) {
    throw new CliError('--stream-documents, --vector-cache, --param and --keep-empty-documents apply to a --dataset; an OpenSearch corpus keeps its documents, vectors and analyzer in the cluster');
  }
  if (values.token !== undefined && values.token.trim() === '') throw new CliError('--token must not be empty');
  if (values.token) io.addSecret?.(values.token);
  const port = numberOption('--port', values.port, NUMERIC_RULES.port, 8790);
  const maxStreams = numberOption('--max-streams', values['max-streams'], NUMERIC_RULES.serveStreams, SERVE_MAX_STREAMS);
  const running = await startServer(
    {
      dataset: values.dataset ?? '',
      cluster: cluster ?? undefined,
      model: values.model,
      modelsDir: values['models-dir'],
      port,
      host: values.host!,
      token: values.token?.trim(),
      allowOrigins: values['allow-origin'] ?? DEFAULT_APP_ORIGINS,
      allowHosts: values['allow-host'],
      maxStreams,
      onListening: (url) => io.err(`Listening on ${url}${SERVE_API_PREFIX}/ while the corpus loads (GET ${SERVE_API_PREFIX}/health says when it is ready)\n`),
      analyzerParams: parseParams(values.param),
      streamDocuments: values['stream-documents'],
      vectorCache: values['vector-cache'],
      spoolDir: values['spool-dir'],
      keepEmptyDocuments: values['keep-empty-documents'],
    },
    io,
  );
  io.out(`Serving "${running.corpus.info.name}" as ${running.corpus.info.id} on ${running.url}${SERVE_API_PREFIX}/ (Ctrl-C stops)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void running.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
};
