// Row types of the dense-vector stores. Owned by the dense-retrieval feature.
import type { EmbeddingSetRecord } from '../core/index.ts';

/** One embedded version of a corpus, keyed [corpusId, modelKey]: which model made it and how far embedding got. */
export type StoredEmbeddingSet = EmbeddingSetRecord;

/**
 * A chunk of an embedding set, keyed [corpusId, modelKey, chunk]. `chunk` ≥ 0: pooled vectors of rows
 * `chunk × chunkRows` onwards. `chunk` < 0: token-level vectors of the documents from row `−chunk − 1` on.
 * All records of a set therefore lie in one key range, [corpusId, modelKey, −∞ … +∞].
 */
export type StoredVectorChunk = StoredPooledChunk | StoredTokenChunk;

export interface StoredPooledChunk {
  corpusId: string;
  modelKey: string;
  chunk: number;
  kind: 'pooled';
  /** Document ids of the rows. */
  ids: string[];
  /**
   * `ids.length × dimensions` L2-normalised float32 values: a Blob of their bytes (rescoring reads single rows of it
   * without reading the rest), or, as written before, a Float32Array of exactly this size.
   */
  vectors: Blob | Float32Array;
}

export interface StoredTokenChunk {
  corpusId: string;
  modelKey: string;
  chunk: number;
  kind: 'tokens';
  /** Document ids, in row order. */
  ids: string[];
  /** Token vectors per document. */
  counts: Int32Array;
  /** Token vectors of the documents one after another. */
  vectors: Float32Array;
}
