// Row types of the dense-vector stores. Owned by the dense-retrieval feature; refine freely.

/** One embedded version of a corpus: which model made it and how far embedding got. */
export interface StoredEmbeddingSet {
  corpusId: string;
  /** Identifies model + dtype + pooling + prefixes; part of every chunk's key. */
  modelKey: string;
  [field: string]: unknown;
}

/** A chunk of rows of an embedding set. */
export interface StoredVectorChunk {
  corpusId: string;
  modelKey: string;
  chunk: number;
  [field: string]: unknown;
}
