import type { MatchedDoc, ScoredDoc } from '../ranking/index.ts';

/** Anything that ranks documents for a text query: BM25, dense, a fusion, GQR. */
export interface Retriever {
  /** Pipeline name as saved with runs (`bm25`, `dense`, `rrf`, …). */
  readonly pipeline: string;
  /** Every setting that affects the ranking, as saved with runs. */
  readonly config: Readonly<Record<string, unknown>>;
  /** The `k` best documents for `text`, best first. */
  search(text: string, k: number, signal?: AbortSignal): Promise<ScoredDoc[]>;
  /**
   * Every query in one call, for retrievers where one call per query is costly (a remote server); `runQueries`
   * uses it when present. Rankings by query id.
   */
  searchMany?(queries: readonly { id: string; text: string }[], k: number, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<Map<string, ScoredDoc[]>>;
}

/** A retriever that also tells which query terms each result matched: BM25, and fusions over it. */
export interface TermMatchingRetriever extends Retriever {
  /** Like `search`, each result with the index terms its scorer matched (empty for results no BM25 scored). */
  searchMatched(text: string, k: number, signal?: AbortSignal): Promise<MatchedDoc[]>;
}

export function matchesTerms(retriever: Retriever): retriever is TermMatchingRetriever {
  return typeof (retriever as Partial<TermMatchingRetriever>).searchMatched === 'function';
}
