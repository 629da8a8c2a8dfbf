import type { CorpusDocument, PipelineSpec, QuerySetRequest, RunRecord } from '../core/index.ts';

/** One search result with what the UI shows of it. */
export interface SearchHit {
  id: string;
  score: number;
  /** Index terms of the query that the document contains, for highlighting (BM25 only; empty otherwise). */
  terms: string[];
  document: CorpusDocument | null;
}

export interface SearchResponse {
  hits: SearchHit[];
  /** Time spent retrieving, in ms (excluding loading indexes or models). */
  elapsedMs: number;
  /** Time spent loading what the pipeline needed (index restored from storage, model), 0 when cached. */
  loadMs: number;
  /** What was loaded for this call, e.g. ['BM25 index restored from storage']. */
  loaded: string[];
  /** The pipeline's full configuration, as a run would save it. */
  config: Readonly<Record<string, unknown>>;
  /** The embedding models that produced the results (dense pipelines), described in one line each. */
  models: string[];
}

/** What the retrieval worker offers the UI (through comlink). */
export interface RetrievalWorkerApi {
  search(corpusId: string, spec: PipelineSpec, query: string, k: number): Promise<SearchResponse>;
  /**
   * The core's `runQuerySet`: runs every stored query of the corpus and saves the run; `onProgress(done, total)`;
   * cancelled through `abortPort` (see abort-bridge.ts).
   */
  runQuerySet(request: QuerySetRequest, onProgress?: (done: number, total: number) => void, abortPort?: MessagePort): Promise<RunRecord>;
  /** Drops cached indexes and vectors of a corpus (after it is deleted). */
  forget(corpusId: string): void;
}
