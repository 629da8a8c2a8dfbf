import type { CorpusSearchHit, CorpusSearchResult, ExplainResultRequest, PartExplanation, PipelineSpec, QuerySetRequest, RunRecord } from '../core/index.ts';
import type { VectorShareTarget } from './vector-share.ts';

/** One search result with what the UI shows of it (the core's searchCorpus hit). */
export type SearchHit = CorpusSearchHit;

export interface SearchResponse extends CorpusSearchResult {
  /** What was loaded for this call, e.g. ['BM25 index restored from storage']. */
  loaded: string[];
}

/** What the retrieval worker offers the UI (through comlink). */
export interface RetrievalWorkerApi extends VectorShareTarget {
  /** The core's `searchCorpus`, with what had to be loaded for it. */
  search(corpusId: string, spec: PipelineSpec, query: string, k: number): Promise<SearchResponse>;
  /** The core's `explainResult`: why one result of `search` ranked where it did (per-term BM25, dense score, fusion, GQR). */
  explain(corpusId: string, request: ExplainResultRequest): Promise<PartExplanation>;
  /**
   * The core's `runQuerySet`: runs every stored query of the corpus and saves the run; `onProgress(done, total)`;
   * cancelled through `abortPort` (see abort-bridge.ts).
   */
  runQuerySet(request: QuerySetRequest, onProgress?: (done: number, total: number) => void, abortPort?: MessagePort): Promise<RunRecord>;
  /** Drops cached indexes and vectors of a corpus (after it is deleted). */
  forget(corpusId: string): void;
}
