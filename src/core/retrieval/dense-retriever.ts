import { isAbortError } from '../abort/index.ts';
import {
  defaultRescoreFactor, searchCompact, type CompactVectors, searchDense, searchMaxSim, type MultiVectorStore,
  type DenseHit, compactFormOf, resolveVectorForm, type VectorForm, type VectorFormChoice, type VectorMatrix,
} from '../dense/index.ts';
import {
  EmbeddingError, embeddingModelKey, assertSameEmbeddingModel, describeEmbeddingModel, type EmbeddingModelInfo,
  type QueryEmbedding, type QueryTokenEmbedding,
} from '../embedding/index.ts';
import type { Retriever } from './retriever.ts';
import type { ScoredDoc } from '../ranking/index.ts';

/** What embeds query text: an `Embedder`, or a proxy of one in another thread. */
export interface QueryEmbedder {
  /** Identity of the pooled vectors it produces. */
  readonly info: EmbeddingModelInfo;
  /** Embeds one query (query prefix applied). */
  embedQuery(text: string): Promise<QueryEmbedding>;
  /** Token-level embedding of one query, for MaxSim. */
  embedQueryTokens(text: string): Promise<QueryTokenEmbedding>;
}

/** Everything dense retrieval over one embedding set needs, as a host provides it. */
export interface DenseIndex {
  /** The set's pooled, L2-normalised float32 vectors, with the model that made them; absent when only `compact` is held. */
  matrix?: VectorMatrix;
  /** The set's compact form (int8 and sign bits) when the host made it; otherwise derived from `matrix` when needed. */
  compact?: CompactVectors;
  /** Embeds queries; must be the matrix's model (checked on every query). */
  embedder: QueryEmbedder;
  /** The set's token-level vectors, loaded on first use; absent when the set has none. */
  tokens?: () => Promise<MultiVectorStore>;
  /** Exact top-k over the matrix; default `searchDense` in this thread (a host may split the scan over workers). */
  search?: (query: QueryEmbedding, k: number) => Promise<DenseHit[]>;
}


/** `single`: cosine of pooled vectors. `multi`: late-interaction MaxSim over token vectors. */
export type DenseSearchMode = 'single' | 'multi';

/**
 * Dense retrieval over a stored embedding set: the query is embedded with the set's own model (refused
 * otherwise) and scored against every document vector — exactly in float32, or by a compact first pass (int8 or
 * sign bits) whose candidates are rescored in float32 (see `searchCompact`; `int8-exact` certifies the result
 * exact). Also what GQR builds on: {@link embedQuery}, {@link vectorsFor} and {@link tokenVectorsFor} give the
 * query embedding and candidate vectors it refines with.
 */
export class DenseRetriever implements Retriever {
  readonly pipeline = 'dense';
  /** How documents are scored. */
  readonly searchMode: DenseSearchMode;
  /** How pooled vectors are scanned (resolved from the pipeline's choice and the set's size). */
  readonly vectorForm: VectorForm;
  private readonly compact: CompactVectors | undefined;
  private readonly vectors: VectorMatrix | CompactVectors;

  constructor(
    private readonly index: DenseIndex,
    options: { searchMode?: DenseSearchMode; vectorForm?: VectorFormChoice } = {},
  ) {
    const vectors = index.matrix ?? index.compact;
    if (!vectors) throw new Error('A dense index needs its float32 vectors or their compact form.');
    this.vectors = vectors;
    this.searchMode = options.searchMode ?? 'single';
    if (this.searchMode === 'multi' && !index.tokens) {
      throw new Error(`The vectors of ${vectors.model.modelId} were stored without token-level embeddings; MaxSim needs them.`);
    }
    assertSameEmbeddingModel(vectors.model, index.embedder.info);
    this.vectorForm = this.searchMode === 'multi' ? 'float32' : resolveVectorForm(options.vectorForm, vectors.size);
    if (this.vectorForm === 'float32' && !index.matrix) {
      throw new Error(
        `Only the compact form of these ${vectors.size.toLocaleString('en-US')} vectors is loaded; search them as int8, int8-exact or binary.`,
      );
    }
    this.compact = this.vectorForm === 'float32' ? undefined : (index.compact ?? compactFormOf(index.matrix!));
  }

  /** The model that made the document vectors (and embeds the queries). */
  get model(): EmbeddingModelInfo {
    return this.vectors.model;
  }

  /** Whether token-level document vectors are stored (MaxSim, GQR's multi scorer). */
  get hasTokenVectors(): boolean {
    return this.index.tokens !== undefined;
  }

  get config(): Readonly<Record<string, unknown>> {
    return {
      model: { ...this.model, prefixes: { ...this.model.prefixes } },
      modelKey: embeddingModelKey(this.model),
      searchMode: this.searchMode,
      ...(this.compact
        ? {
            vectorForm: this.vectorForm,
            similarity:
              this.vectorForm === 'int8-exact'
                ? 'cosine (exact: int8 first pass, float32 rescoring of every row its bound leaves in)'
                : `cosine (${this.vectorForm} first pass, float32 rescoring of ${defaultRescoreFactor(this.compact.size)}×k)`,
          }
        : { similarity: this.searchMode === 'single' ? 'cosine (exact)' : 'MaxSim (exact)' }),
      documents: this.vectors.size,
    };
  }

  /** One-line description of the model, for result lists. */
  describeModel(): string {
    return describeEmbeddingModel(this.model);
  }

  /** The query's pooled embedding, by the set's model. */
  async embedQuery(text: string): Promise<QueryEmbedding> {
    const query = await this.embedWith(() => this.index.embedder.embedQuery(text));
    assertSameEmbeddingModel(this.model, query.model);
    return query;
  }

  /** The query's token-level embedding, by the set's model (pooling `token`). */
  async embedQueryTokens(text: string): Promise<QueryTokenEmbedding> {
    const query = await this.embedWith(() => this.index.embedder.embedQueryTokens(text));
    assertSameEmbeddingModel({ ...this.model, pooling: 'token' }, query.model);
    return query;
  }

  /** Runs the embedder; its failures (not cancellation) become an EmbeddingError naming the model. */
  private async embedWith<T>(embed: () => Promise<T>): Promise<T> {
    try {
      return await embed();
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new EmbeddingError(`${this.model.modelId} could not embed the query: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
  }

  /** Top-k cosine for an already embedded query, in the retriever's vector form. */
  async searchByEmbedding(query: QueryEmbedding, k: number): Promise<ScoredDoc[]> {
    const hits = this.compact
      ? await searchCompact(this.compact, query, k, {
          firstPass: this.vectorForm === 'binary' ? 'binary' : 'int8',
          rescoreFactor: defaultRescoreFactor(this.compact.size),
          exact: this.vectorForm === 'int8-exact',
        })
      : this.index.search
        ? await this.index.search(query, k)
        : searchDense(this.index.matrix!, query, k);
    return hits.map(({ id, score }) => ({ id, score }));
  }

  async search(text: string, k: number, signal?: AbortSignal): Promise<ScoredDoc[]> {
    signal?.throwIfAborted();
    if (this.searchMode === 'multi') {
      const [store, query] = await Promise.all([this.index.tokens!(), this.embedQueryTokens(text)]);
      return searchMaxSim(store, query, k).map(({ id, score }) => ({ id, score }));
    }
    return this.searchByEmbedding(await this.embedQuery(text), k);
  }

  /**
   * Stored pooled vectors of the given documents (views, not copies); ids without a vector are left out. With
   * only the compact form loaded these are the dequantised int8 rows (within half a quantisation step), unless the
   * form is `int8-exact`: then the float32 rows are read back, so GQR refines with what the exact search scored.
   */
  async vectorsFor(ids: Iterable<string>): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    const { matrix, compact } = this.index;
    if (matrix) {
      for (const id of ids) {
        const vector = matrix.vectorOf(id);
        if (vector) out.set(id, vector);
      }
      return out;
    }
    const rows = new Map<string, number>();
    for (const id of ids) {
      const row = compact!.rowOf(id);
      if (row !== undefined) rows.set(id, row);
    }
    if (this.vectorForm !== 'int8-exact') {
      for (const [id, row] of rows) out.set(id, compact!.dequantized(row));
      return out;
    }
    const sorted = [...new Set(rows.values())].sort((a, b) => a - b);
    const floats = await compact!.floatRows(sorted);
    const byRow = new Map(sorted.map((row, i) => [row, floats[i]!]));
    for (const [id, row] of rows) out.set(id, byRow.get(row)!);
    return out;
  }

  /** Stored token vectors (one array per token) of the given documents; empty when the set has none. */
  async tokenVectorsFor(ids: Iterable<string>): Promise<Map<string, Float32Array[]>> {
    const out = new Map<string, Float32Array[]>();
    if (!this.index.tokens) return out;
    const store = await this.index.tokens();
    for (const id of ids) {
      const doc = store.indexOf(id);
      if (doc === undefined) continue;
      const start = store.start(doc);
      out.set(id, Array.from({ length: store.count(doc) }, (_, b) => store.rows.row(start + b)));
    }
    return out;
  }
}
