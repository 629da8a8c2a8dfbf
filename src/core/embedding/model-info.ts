/** ONNX weight variant; picks the file `onnx/model[_suffix].onnx`. */
export type EmbeddingDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';

/** How token vectors become one vector per text; `token` means no pooling (one vector per token, multi-vector). */
export type EmbeddingPooling = 'mean' | 'cls' | 'token';

/** The prefixes prepended to texts before embedding (E5 `query: `, BGE's instruction, …). */
export interface EmbeddingPrefixes {
  /** Prepended to queries. */
  query: string;
  /** Prepended to documents. */
  passage: string;
}

/** Identity of the model that produced some embeddings. Vectors are comparable only between equal identities. */
export interface EmbeddingModelInfo {
  /** Model id or local folder name, e.g. `Xenova/bge-small-en-v1.5`. */
  modelId: string;
  /** ONNX weight type the model ran with (`fp32`, `q8`, …). */
  dtype: string;
  /** Pooling that produced the vectors. */
  pooling: EmbeddingPooling;
  /** Length of every vector. */
  dimensions: number;
  /** Prefixes applied to queries and documents. */
  prefixes: EmbeddingPrefixes;
}

/** A query embedded by a known model, ready to search a store built by the same model. */
export interface QueryEmbedding {
  /** The (normally L2-normalised) query vector. */
  vector: Float32Array;
  /** The model that produced it. */
  model: EmbeddingModelInfo;
}

/** Token-level (multi-vector) embedding of one text: `count` rows of `dimensions` values, row-major. */
export interface TokenEmbedding {
  /** `count × dimensions` values; each row L2-normalised. */
  vectors: Float32Array;
  /** Number of token vectors (attention-masked tokens, special tokens included). */
  count: number;
}

/** A token-level query embedding together with the model that produced it. */
export interface QueryTokenEmbedding extends TokenEmbedding {
  /** The model that produced it (pooling `token`). */
  model: EmbeddingModelInfo;
}

/** One-line human description, e.g. `Xenova/e5-small-v2 (fp32, mean pooling, 384 dims, query prefix "query: ", …)`. */
export function describeEmbeddingModel(info: EmbeddingModelInfo): string {
  return (
    `${info.modelId} (${info.dtype}, ${info.pooling} pooling, ${info.dimensions} dims, ` +
    `query prefix ${JSON.stringify(info.prefixes.query)}, passage prefix ${JSON.stringify(info.prefixes.passage)})`
  );
}

/** True when both identities name the same model, weights, pooling, size and prefixes. */
export function sameEmbeddingModel(a: EmbeddingModelInfo, b: EmbeddingModelInfo): boolean {
  return (
    a.modelId === b.modelId &&
    a.dtype === b.dtype &&
    a.pooling === b.pooling &&
    a.dimensions === b.dimensions &&
    a.prefixes.query === b.prefixes.query &&
    a.prefixes.passage === b.prefixes.passage
  );
}

/** Throws unless a query embedding from `query` may be searched against vectors from `store`. */
export function assertSameEmbeddingModel(store: EmbeddingModelInfo, query: EmbeddingModelInfo): void {
  if (sameEmbeddingModel(store, query)) return;
  throw new Error(
    `Embedding model mismatch: the vector store was built with ${describeEmbeddingModel(store)}, ` +
      `but the query was embedded with ${describeEmbeddingModel(query)}. Embed the query with the store's model.`,
  );
}
