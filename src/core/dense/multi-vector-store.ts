import type { EmbeddingModelInfo, TokenEmbedding } from '../embedding/index.ts';
import { ChunkedRows, DEFAULT_CHUNK_ROWS } from './chunked-rows.ts';

/** Options of a new {@link MultiVectorStore}. */
export interface MultiVectorStoreOptions {
  /** The model whose token vectors the store holds (pooling `token`). */
  model: EmbeddingModelInfo;
  /** Token rows per chunk; default 4,096. */
  chunkRows?: number;
}

/**
 * Token-level (multi-vector) embeddings: each document owns a contiguous run of L2-normalised rows in one
 * chunked row store, so memory stays at the raw float32 size plus two numbers per document.
 */
export class MultiVectorStore {
  /** The model that produced every token vector. */
  readonly model: EmbeddingModelInfo;
  /** All token rows, documents one after another. */
  readonly rows: ChunkedRows;
  private readonly idList: string[] = [];
  private readonly docById = new Map<string, number>();
  private starts: Int32Array = new Int32Array(64);
  private counts: Int32Array = new Int32Array(64);

  constructor(options: MultiVectorStoreOptions) {
    if (options.model.pooling !== 'token') {
      throw new Error(`a multi-vector store needs token-level embeddings; ${options.model.modelId} uses ${options.model.pooling} pooling`);
    }
    this.model = options.model;
    this.rows = new ChunkedRows(options.model.dimensions, options.chunkRows ?? DEFAULT_CHUNK_ROWS);
  }

  /** Row width. */
  get dimensions(): number {
    return this.rows.dimensions;
  }

  /** Number of documents. */
  get size(): number {
    return this.idList.length;
  }

  /** Document ids in insertion order (document index = position). */
  get ids(): readonly string[] {
    return this.idList;
  }

  /** Adds a document's token vectors (normalised on the way in). Returns its document index. */
  add(id: string, embedding: TokenEmbedding): number {
    const { vectors, count } = embedding;
    if (vectors.length !== count * this.dimensions) {
      throw new Error(`token vectors for "${id}" have ${vectors.length} values; expected ${count} × ${this.dimensions}`);
    }
    if (this.docById.has(id)) throw new Error(`document "${id}" is already in the store`);
    const doc = this.idList.length;
    if (doc === this.starts.length) {
      this.starts = grow(this.starts);
      this.counts = grow(this.counts);
    }
    this.starts[doc] = count > 0 ? this.rows.append(vectors, count) : this.rows.size;
    this.counts[doc] = count;
    this.idList.push(id);
    this.docById.set(id, doc);
    return doc;
  }

  /** Document index of an id, or undefined. */
  indexOf(id: string): number | undefined {
    return this.docById.get(id);
  }

  /** First token row of document `doc`. */
  start(doc: number): number {
    this.checkDoc(doc);
    return this.starts[doc];
  }

  /** Number of token vectors of document `doc`. */
  count(doc: number): number {
    this.checkDoc(doc);
    return this.counts[doc];
  }

  /** A copy of a document's token vectors (row-major), or undefined when the id is absent. */
  vectorsOf(id: string): TokenEmbedding | undefined {
    const doc = this.docById.get(id);
    if (doc === undefined) return undefined;
    const count = this.counts[doc];
    const dims = this.dimensions;
    const vectors = new Float32Array(count * dims);
    for (let b = 0; b < count; b++) vectors.set(this.rows.row(this.starts[doc] + b), b * dims);
    return { vectors, count };
  }

  private checkDoc(doc: number): void {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.idList.length) {
      throw new Error(`document index ${doc} out of range (0..${this.idList.length - 1})`);
    }
  }
}

function grow(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
