// The wire format of `dsw serve` (docs/serve-api.md): paths, bodies, errors, and the JSON form of a GQR
// prepared query. Shared by the server-neutral handler and the browser's HTTP client.
import type { AnalyzerOptions } from '../text/index.ts';
import type { CorpusDocument } from '../corpus/index.ts';
import type { GqrPrepared } from '../retrieval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import type { EmbeddingModelInfo } from '../embedding/index.ts';
import type { EmbeddingSetRecord } from '../storage/index.ts';

/** Every path of the API starts with this. */
export const SERVE_API_PREFIX = '/api/v1';
/** The largest `k` a search or run may ask for. */
export const SERVE_MAX_K = 1000;
/** The largest request body accepted, in bytes. */
export const SERVE_MAX_BODY_BYTES = 1 << 20;
/** The most documents one `documents` request may fetch. */
export const SERVE_MAX_DOCUMENTS = 1000;
/** The most texts one `embed` request may carry. */
export const SERVE_MAX_EMBED_TEXTS = 256;
/** Streamed requests (`run`, `gqr/prepare`) served at once by default; more get 429 `busy`. */
export const SERVE_MAX_STREAMS = 4;

/** What a served corpus is, as `GET /corpora/:id` returns it. */
export interface ServedCorpusInfo {
  /** The corpus id on the server (stable while the server runs over the same files). */
  id: string;
  name: string;
  documentCount: number;
  queryCount: number;
  qrelCount: number;
  questionCount: number;
  analyzer: AnalyzerOptions;
  /** The server's embedding sets: what dense pipelines (`modelKey`) can search there. */
  embeddingSets: EmbeddingSetRecord[];
}

export interface ServeHealth {
  ok: true;
  service: 'deep-search-workbench';
  apiVersion: 1;
  /** False while the server is still loading its corpus (every other endpoint answers 503 `not-ready` then). */
  ready: boolean;
  /** What the server is doing, in words (e.g. "loading the corpus"). */
  status: string;
  /** The served corpus ids (empty until ready). */
  corpora: string[];
}

/** One search result: score, index terms it matched (BM25 pipelines), the document. */
export interface ServedHit extends ScoredDoc {
  terms: string[];
  document: CorpusDocument | null;
}

export interface ServedSearchResponse {
  hits: ServedHit[];
  elapsedMs: number;
  config: Record<string, unknown>;
}

/** `POST /corpora/:id/embed`: passage vectors of the texts sent, by the model the server embedded its corpus with. */
export interface ServedEmbedResponse {
  model: EmbeddingModelInfo;
  /** The set key of that model (`embeddingSets[].modelKey`). */
  modelKey: string;
  /** Tokens kept per text. */
  maxTokens: number;
  /** One pooled, L2-normalised vector per text, in the order sent. */
  vectors: number[][];
  elapsedMs: number;
}

/** NDJSON lines of `POST /corpora/:id/run` and `POST /corpora/:id/gqr/prepare`. */
export type ServeStreamLine<T> = { type: 'progress'; done: number; total: number } | { type: 'result'; result: T } | { type: 'error'; status: number; error: ServeErrorBody };

export interface ServedRunResult {
  /** query id → ranking. */
  rankings: Record<string, ScoredDoc[]>;
  config: Record<string, unknown>;
  elapsedMs: number;
}

export interface ServedPrepareResult {
  prepared: (PreparedJson & { queryId: string })[];
  config: Record<string, unknown>;
  elapsedMs: number;
}

/** The body of every error response. `code` is stable; `message` is for people. */
export interface ServeErrorBody {
  code: ServeErrorCode;
  message: string;
}

export type ServeErrorCode =
  | 'unauthorized'
  | 'not-found'
  | 'unknown-corpus'
  | 'method-not-allowed'
  | 'bad-json'
  | 'bad-request'
  | 'bad-spec'
  | 'k-too-large'
  | 'too-large'
  | 'origin-not-allowed'
  | 'host-not-allowed'
  | 'body-incomplete'
  | 'timeout'
  | 'busy'
  | 'not-ready'
  | 'internal';

/** An error with its HTTP status, thrown by the handler and rebuilt by the client. */
export class ServeError extends Error {
  constructor(
    readonly status: number,
    readonly code: ServeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ServeError';
  }

  get body(): ServeErrorBody {
    return { code: this.code, message: this.message };
  }
}

/** A GqrPrepared as JSON: Maps as objects, vectors as number arrays. */
export interface PreparedJson {
  text: string;
  fetchK: number;
  children: GqrPrepared['children'];
  notes: string[];
  input: {
    primary: ScoredDoc[];
    complementary: ScoredDoc[];
    queryEmbedding?: number[] | null;
    candidateEmbeddings?: Record<string, number[]>;
    queryMultiEmbedding?: number[][] | null;
    candidateMultiEmbeddings?: Record<string, number[][]>;
    primarySearchMode?: 'single' | 'multi';
  };
}

const toArray = (v: ArrayLike<number>) => Array.from(v);

export function preparedToJson(prepared: GqrPrepared): PreparedJson {
  const { input } = prepared;
  const out: PreparedJson['input'] = { primary: input.primary, complementary: input.complementary };
  if (input.queryEmbedding !== undefined) out.queryEmbedding = input.queryEmbedding ? toArray(input.queryEmbedding) : null;
  if (input.candidateEmbeddings) out.candidateEmbeddings = Object.fromEntries([...input.candidateEmbeddings].map(([id, v]) => [id, toArray(v)]));
  if (input.queryMultiEmbedding !== undefined) out.queryMultiEmbedding = input.queryMultiEmbedding ? input.queryMultiEmbedding.map(toArray) : null;
  if (input.candidateMultiEmbeddings) {
    out.candidateMultiEmbeddings = Object.fromEntries([...input.candidateMultiEmbeddings].map(([id, m]) => [id, m.map(toArray)]));
  }
  if (input.primarySearchMode) out.primarySearchMode = input.primarySearchMode;
  return { text: prepared.text, fetchK: prepared.fetchK, children: prepared.children, notes: prepared.notes, input: out };
}

export function preparedFromJson(json: PreparedJson): GqrPrepared {
  const { input } = json;
  const f32 = (v: number[]) => Float32Array.from(v);
  return {
    text: json.text,
    fetchK: json.fetchK,
    children: json.children,
    notes: json.notes,
    input: {
      primary: input.primary,
      complementary: input.complementary,
      ...(input.queryEmbedding !== undefined ? { queryEmbedding: input.queryEmbedding ? f32(input.queryEmbedding) : null } : {}),
      ...(input.candidateEmbeddings ? { candidateEmbeddings: new Map(Object.entries(input.candidateEmbeddings).map(([id, v]) => [id, f32(v)])) } : {}),
      ...(input.queryMultiEmbedding !== undefined ? { queryMultiEmbedding: input.queryMultiEmbedding ? input.queryMultiEmbedding.map(f32) : null } : {}),
      ...(input.candidateMultiEmbeddings
        ? { candidateMultiEmbeddings: new Map(Object.entries(input.candidateMultiEmbeddings).map(([id, m]) => [id, m.map(f32)])) }
        : {}),
      ...(input.primarySearchMode ? { primarySearchMode: input.primarySearchMode } : {}),
    },
  };
}
