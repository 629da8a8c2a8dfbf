import type { ModelFileHash, EmbeddingModelInfo, EmbeddingModelSource } from '../embedding/index.ts';
import { StorageFullError } from './storage-full-error.ts';

/** One embedded version of a corpus: which model made it, how, and how far embedding got. */
export interface EmbeddingSetRecord {
  corpusId: string;
  /** `embeddingModelKey(model)`; a corpus has at most one set per key. */
  modelKey: string;
  /** Identity of the pooled vectors (model, dtype, pooling, dimensions, prefixes). */
  model: EmbeddingModelInfo;
  /** Where the model was loaded from; used to load it again for queries. */
  source: EmbeddingModelSource;
  /** Max tokens per text the documents were embedded with (queries use the same). */
  maxTokens: number;
  /** Rows per stored chunk; every chunk but the last holds exactly this many. */
  chunkRows: number;
  /** Whether token-level (multi-vector) embeddings are stored too. */
  tokens: boolean;
  /** Documents of the corpus (rows when complete). */
  totalRows: number;
  /** Documents embedded and stored, in id order. */
  rowsDone: number;
  /** Id of the last stored document; embedding resumes after it. Null before the first chunk. */
  lastId: string | null;
  /** True once every document is stored. */
  complete: boolean;
  /** Where inference ran (`webgpu`, `wasm`, `cpu`), for the record. */
  device: string;
  /** Bytes of stored vector data (pooled and token-level). */
  bytes: number;
  createdAt: number;
  updatedAt: number;
  /** SHA-256 of the model files the vectors were made with (hashed once when the model was loaded); absent on older sets. */
  modelFiles?: ModelFileHash[];
}

/** A chunk of pooled vectors: `ids.length` rows, row-major, already L2-normalised. */
export interface VectorChunk {
  /** Chunk number, from 0; rows `index × chunkRows` onwards. */
  index: number;
  /** Document ids of the rows, in order. */
  ids: string[];
  /** `ids.length × dimensions` values. */
  vectors: Float32Array;
}

/** One stored chunk: its ids, and its rows read all at once or singly (without the rest, where the store can). */
export interface ChunkRowReader {
  /** The document ids of the chunk's rows. */
  readonly ids: readonly string[];
  /** Every row (`ids.length × dimensions` values). */
  all(): Promise<Float32Array>;
  /** The vectors of rows `rows` (positions within the chunk), in the order asked. */
  rows(rows: readonly number[]): Promise<Float32Array[]>;
  /**
   * Whether keeping the reader costs no more than a handle (IndexedDB: a stored Blob, whose bytes are read only
   * as rows are asked), so that it can be kept for later reads; false when it holds the chunk's vectors.
   */
  readonly light: boolean;
  /**
   * The chunk's stored float32 bytes, unread, where the store keeps them as a Blob: rows of many chunks are then
   * read at once, as one Blob made of their slices (one read instead of one per row).
   */
  readonly bytes?: Blob;
}

/** Token-level vectors of a batch of consecutive documents. */
export interface TokenBatch {
  /** Row of the first document. */
  startRow: number;
  /** Document ids, in order. */
  ids: string[];
  /** Token vectors per document. */
  counts: Int32Array;
  /** `Σ counts × dimensions` values, documents one after another. */
  vectors: Float32Array;
}

/** What a chunk write records about the set, in the same transaction. */
export interface EmbeddingProgressUpdate {
  rowsDone: number;
  lastId: string;
  complete: boolean;
  /** Bytes added by this write. */
  bytesAdded: number;
}

/**
 * Stored embedding sets and their vectors: IndexedDB in the browser, memory in the CLI and tests.
 * Every method is one transaction.
 */
export interface VectorStore {
  /** The sets of a corpus (complete or not), newest first. */
  listSets(corpusId: string): Promise<EmbeddingSetRecord[]>;
  getSet(corpusId: string, modelKey: string): Promise<EmbeddingSetRecord | undefined>;
  /** Creates a set with no rows; fails when one exists under the same key. */
  createSet(record: EmbeddingSetRecord): Promise<void>;
  /**
   * Writes (or rewrites, when resuming a partial chunk) one chunk and the token batches of its new rows, and
   * updates the set's progress, atomically: after a crash either all of it is stored or none.
   */
  writeChunk(corpusId: string, modelKey: string, chunk: VectorChunk, tokens: readonly TokenBatch[], progress: EmbeddingProgressUpdate): Promise<void>;
  /** One chunk, or undefined. */
  getChunk(corpusId: string, modelKey: string, index: number): Promise<VectorChunk | undefined>;
  /** Every chunk of a set, in order. */
  getChunks(corpusId: string, modelKey: string): Promise<VectorChunk[]>;
  /**
   * A reader of single rows of one chunk (rescoring reads a few rows of many chunks), or undefined when the chunk
   * is not stored. Optional: without it, rows are read through `getChunk`.
   */
  chunkRowReader?(corpusId: string, modelKey: string, index: number): Promise<ChunkRowReader | undefined>;
  /** Every token batch of a set, in row order. */
  getTokenBatches(corpusId: string, modelKey: string): Promise<TokenBatch[]>;
  /** Removes a set and its vectors. */
  deleteSet(corpusId: string, modelKey: string): Promise<void>;
  /** Removes every set of a corpus (when the corpus is deleted). */
  deleteCorpusSets(corpusId: string): Promise<void>;
}

/** The storage quota ran out while vectors were being written; everything stored before is intact. */
export class VectorStorageFullError extends StorageFullError {
  constructor(rowsStored: number) {
    super(`The ${rowsStored} document vector(s) stored before are kept, and embedding can resume from there once space is freed.`);
    this.name = 'VectorStorageFullError';
  }
}
