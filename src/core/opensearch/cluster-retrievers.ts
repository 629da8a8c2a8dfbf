// Retrievers over a corpus indexed in OpenSearch: BM25 and dense are engine queries, fusion and GQR are the core's
// own over them (GQR gets the pooled documents' stored float vectors by mget), so rankings match a tab's.
import { isAbortError } from '../abort/index.ts';
import type { Bm25Params } from '../bm25/index.ts';
import { EmbeddingError, assertSameEmbeddingModel, type QueryEmbedding } from '../embedding/index.ts';
import {
  type RetrievalResources, type QueryEmbedder, FusionRetriever, GqrRetriever, type GqrGeometry, type PipelineSpec,
  type Retriever, type TermMatchingRetriever,
} from '../retrieval/index.ts';
import type { MatchedDoc, ScoredDoc } from '../ranking/index.ts';
import { Analyzer } from '../text/index.ts';
import { innerProductOfKnnScore, SEARCH_FIELD, STORED_VECTOR_FIELD, VECTOR_FIELD, vectorFromBase64, type ClusterCorpusMeta } from './cluster-index.ts';
import type { OpenSearchClient } from './opensearch-client.ts';

/**
 * Equal scores ordered by document id: otherwise each shard breaks ties by its own document order, and a 2-shard
 * index would list (and cut at k) tied documents differently from a 1-shard one.
 */
const TIES_BY_ID = [{ _score: 'desc' }, { id: 'asc' }];

/** Queries a query set keeps in flight against the cluster (the engine answers them in parallel). */
const QUERY_SET_CONCURRENCY = 4;

/** Every query of a set, a few at a time; rankings in query order, progress as each one finishes. */
async function searchConcurrently(
  search: (text: string, k: number, signal?: AbortSignal) => Promise<ScoredDoc[]>,
  queries: readonly { id: string; text: string }[],
  k: number,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<Map<string, ScoredDoc[]>> {
  const results: ScoredDoc[][] = new Array(queries.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < queries.length) {
      signal?.throwIfAborted();
      const i = next++;
      results[i] = await search(queries[i]!.text, k, signal);
      onProgress?.(++done, queries.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(QUERY_SET_CONCURRENCY, queries.length) }, worker));
  return new Map(queries.map((q, i) => [q.id, results[i]!]));
}

/** Where a cluster retriever runs, as its run configuration records it. */
function engineConfig(client: OpenSearchClient, index: string, meta: ClusterCorpusMeta): Record<string, unknown> {
  return { engine: 'opensearch', engineVersion: meta.engineVersion ?? null, opensearch: client.url, index, shards: meta.shards, searchType: 'dfs_query_then_fetch' };
}

/**
 * BM25 by OpenSearch over the index's analysed field. The query is analysed by the workbench's own analyzer (the
 * index's settings) and sent as one named term clause per distinct term, so query terms are exactly the tab's and
 * each hit says which terms it matched. OpenSearch's BM25 (Lucene's, with the (1 + k1) factor kept) is the same
 * Okapi formula as the workbench's; only document lengths differ slightly (Lucene stores them in one byte).
 */
export class OpenSearchBm25Retriever implements TermMatchingRetriever {
  readonly pipeline = 'bm25';
  private readonly analyzer: Analyzer;

  constructor(
    private readonly client: OpenSearchClient,
    private readonly index: string,
    private readonly meta: ClusterCorpusMeta,
    readonly params: Bm25Params,
  ) {
    if (params.d !== 0 || params.termCountBoost) {
      throw new Error('OpenSearch scores plain Okapi BM25: d must be 0 and termCountBoost off on an OpenSearch corpus');
    }
    const { k1, b } = meta.bm25;
    if (Math.abs(params.k1 - k1) > 1e-9 || Math.abs(params.b - b) > 1e-9) {
      throw new Error(
        `The OpenSearch index "${index}" scores BM25 with k1=${k1}, b=${b}; this pipeline asks k1=${params.k1}, b=${params.b}. ` +
          'In OpenSearch k1 and b are index settings: set them on the closed index (dsw index … --set-bm25 k1=…,b=…) or index a copy (docs/opensearch.md).',
      );
    }
    this.analyzer = new Analyzer(meta.record.analyzer);
  }

  get config(): Readonly<Record<string, unknown>> {
    return {
      ...this.params,
      analyzer: { ...this.analyzer.options },
      ...engineConfig(this.client, this.index, this.meta),
      similarity: `OpenSearch BM25 k1=${this.meta.bm25.k1} b=${this.meta.bm25.b} (Lucene; document lengths stored in one byte)`,
    };
  }

  async search(text: string, k: number, signal?: AbortSignal): Promise<ScoredDoc[]> {
    return (await this.searchMatched(text, k, signal)).map(({ id, score }) => ({ id, score }));
  }

  async searchMatched(text: string, k: number, signal?: AbortSignal): Promise<MatchedDoc[]> {
    return this.query(text, k, undefined, signal);
  }

  searchMany(queries: readonly { id: string; text: string }[], k: number, onProgress?: (done: number, total: number) => void, signal?: AbortSignal) {
    return searchConcurrently((text, n, s) => this.search(text, n, s), queries, k, onProgress, signal);
  }

  /** The scores of the given documents for the query (those matching no term are absent): an ids filter with the query. */
  async scoresFor(text: string, ids: readonly string[], signal?: AbortSignal): Promise<MatchedDoc[]> {
    if (ids.length === 0) return [];
    return this.query(text, ids.length, ids, signal);
  }

  private async query(text: string, k: number, ids: readonly string[] | undefined, signal?: AbortSignal): Promise<MatchedDoc[]> {
    const terms = this.analyzer.queryTerms(text);
    if (terms.length === 0) return [];
    const should = terms.map((term) => ({ term: { [SEARCH_FIELD]: { value: term, _name: term } } }));
    const hits = await this.client.search(
      this.index,
      { size: k, _source: false, sort: TIES_BY_ID, query: { bool: { should, minimum_should_match: 1, ...(ids ? { filter: { ids: { values: ids } } } : {}) } } },
      signal,
    );
    return hits.map((hit) => ({ id: hit._id, score: hit._score ?? 0, terms: terms.filter((t) => hit.matched_queries?.includes(t)) }));
  }
}

/** How the vector field is searched: exactly (every document scored), or through the HNSW graph with `efSearch`. */
export type ClusterKnnMode = { kind: 'exact' } | { kind: 'hnsw'; efSearch: number };

/**
 * Dense retrieval by OpenSearch: the query is embedded here by the index's own model (the same vectors as in a
 * tab) and scored against the stored vectors by the k-NN plugin, exactly (knn_score script) or by HNSW.
 */
export class OpenSearchDenseRetriever implements Retriever {
  readonly pipeline = 'dense';
  readonly searchMode = 'single' as const;

  constructor(
    private readonly client: OpenSearchClient,
    private readonly index: string,
    private readonly meta: ClusterCorpusMeta,
    private readonly embedder: QueryEmbedder,
    readonly knn: ClusterKnnMode = { kind: 'exact' },
  ) {
    if (!meta.embedding) throw new Error(`The OpenSearch corpus "${index}" was indexed without vectors; index it with --model for dense, fusion and GQR pipelines`);
    assertSameEmbeddingModel(meta.embedding.model, embedder.info);
  }

  get config(): Readonly<Record<string, unknown>> {
    const { model, modelKey, hnsw } = this.meta.embedding!;
    return {
      model: { ...model, prefixes: { ...model.prefixes } },
      modelKey,
      searchMode: 'single',
      similarity:
        this.knn.kind === 'exact'
          ? 'cosine (exact, OpenSearch knn_score)'
          : `cosine (approximate: HNSW, lucene engine, m=${hnsw.m}, ef_construction=${hnsw.efConstruction}, ef_search=${this.knn.efSearch})`,
      knn: this.knn.kind === 'exact' ? { method: 'exact' } : { method: 'hnsw', m: hnsw.m, efConstruction: hnsw.efConstruction, efSearch: this.knn.efSearch },
      documents: this.meta.record.documentCount,
      ...engineConfig(this.client, this.index, this.meta),
    };
  }

  async embedQuery(text: string): Promise<QueryEmbedding> {
    try {
      const query = await this.embedder.embedQuery(text);
      assertSameEmbeddingModel(this.meta.embedding!.model, query.model);
      return query;
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new EmbeddingError(`${this.meta.embedding!.model.modelId} could not embed the query: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
  }

  async search(text: string, k: number, signal?: AbortSignal): Promise<ScoredDoc[]> {
    signal?.throwIfAborted();
    const vector = Array.from((await this.embedQuery(text)).vector);
    const query =
      this.knn.kind === 'exact'
        ? { script_score: { query: { match_all: {} }, script: { source: 'knn_score', lang: 'knn', params: { field: VECTOR_FIELD, query_value: vector, space_type: 'innerproduct' } } } }
        : { knn: { [VECTOR_FIELD]: { vector, k, method_parameters: { ef_search: Math.max(this.knn.efSearch, k) } } } };
    const hits = await this.client.search(this.index, { size: k, _source: false, sort: TIES_BY_ID, query }, signal);
    return hits.map((hit) => ({ id: hit._id, score: innerProductOfKnnScore(hit._score ?? 0) }));
  }

  searchMany(queries: readonly { id: string; text: string }[], k: number, onProgress?: (done: number, total: number) => void, signal?: AbortSignal) {
    return searchConcurrently((text, n, s) => this.search(text, n, s), queries, k, onProgress, signal);
  }

  /** The stored float vectors of the given documents (their float32 bytes from `_source`: the tab's values, exactly). */
  async vectorsFor(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (let start = 0; start < ids.length; start += 1000) {
      const slice = ids.slice(start, start + 1000);
      const sources = await this.client.mget<{ [STORED_VECTOR_FIELD]?: string }>(this.index, slice, { includes: [STORED_VECTOR_FIELD] }, signal);
      sources.forEach((source, i) => {
        const stored = source?.[STORED_VECTOR_FIELD];
        if (stored) out.set(slice[i]!, vectorFromBase64(stored));
      });
    }
    return out;
  }

  /** What GQR refines in: this retriever's query embeddings and the stored vectors. */
  geometry(): GqrGeometry {
    return {
      searchMode: 'single',
      embedQuery: async (text) => (await this.embedQuery(text)).vector.slice(),
      documentVectors: (ids) => this.vectorsFor(ids),
    };
  }
}

export interface ClusterResourcesOptions {
  /** The query embedder of the index's model (loaded on first use); absent: dense pipelines are refused. */
  embedder?: () => Promise<QueryEmbedder>;
  /** How dense pipelines search the vector field (default exact). */
  knn?: ClusterKnnMode;
}

/**
 * Retrieval over an OpenSearch corpus: every pipeline spec is built here (the host hands it the whole spec), BM25
 * and dense as engine queries, fusion and GQR by the core over them.
 */
export function openSearchResources(client: OpenSearchClient, index: string, meta: ClusterCorpusMeta, options: ClusterResourcesOptions = {}): RetrievalResources {
  let embedder: Promise<QueryEmbedder> | undefined;
  const build = async (spec: PipelineSpec): Promise<Retriever> => {
    switch (spec.kind) {
      case 'bm25':
        return new OpenSearchBm25Retriever(client, index, meta, spec.params);
      case 'dense': {
        if (!meta.embedding) throw new Error(`The OpenSearch corpus "${index}" was indexed without vectors; index it with --model for dense, fusion and GQR pipelines`);
        if (spec.modelKey !== meta.embedding.modelKey) {
          throw new Error(`The OpenSearch corpus "${index}" holds vectors of model key ${meta.embedding.modelKey}, not ${spec.modelKey}`);
        }
        if (spec.searchMode === 'multi') throw new Error('MaxSim (token vectors) is not available on an OpenSearch corpus; use single-vector search');
        if (spec.vectorForm === 'int8' || spec.vectorForm === 'int8-exact' || spec.vectorForm === 'binary') {
          throw new Error(`The ${spec.vectorForm} vector form is the tab's compact scan; OpenSearch scores the float vectors exactly or by HNSW`);
        }
        if (!options.embedder) throw new Error('Dense retrieval on this OpenSearch corpus needs its model here to embed queries (--model)');
        embedder ??= options.embedder();
        return new OpenSearchDenseRetriever(client, index, meta, await embedder, options.knn);
      }
      case 'rrf': {
        const [first, second] = await Promise.all(spec.pipelines.map(build));
        return new FusionRetriever(first!, second!, { method: 'rrf', k: spec.k }, spec.fetchKMultiplier);
      }
      case 'cc': {
        const [first, second] = await Promise.all(spec.pipelines.map(build));
        const { weight, normalizeMethod, pipeline1Min, pipeline2Min } = spec;
        return new FusionRetriever(first!, second!, { method: 'cc', weight, normalizeMethod, pipeline1Min, pipeline2Min }, spec.fetchKMultiplier);
      }
      case 'gqr': {
        const primary = await build(spec.primary);
        const complementary = await build(spec.complementary);
        const geometry = primary instanceof OpenSearchDenseRetriever ? primary.geometry() : null;
        return new GqrRetriever({ primary, complementary, geometry, config: spec.config });
      }
      default:
        throw new Error(`Unknown pipeline kind: ${String((spec as { kind: unknown }).kind)}`);
    }
  };
  return {
    bm25Index: () => Promise.reject(new Error(`The corpus "${index}" lives in OpenSearch (${client.url}); its index stays there.`)),
    retriever: build,
  };
}
