import type { CorpusDocument, PipelineSpec, RunMap } from '../core/index.ts';

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

export interface QuerySetRun {
  run: RunMap;
  elapsedMs: number;
  config: Readonly<Record<string, unknown>>;
}

/** What the retrieval worker offers the UI (through comlink). */
export interface RetrievalWorkerApi {
  search(corpusId: string, spec: PipelineSpec, query: string, k: number): Promise<SearchResponse>;
  /** Runs every stored query of the corpus; `onProgress(done, total)`; cancelled with `cancel()`. */
  runQuerySet(corpusId: string, spec: PipelineSpec, k: number, onProgress?: (done: number, total: number) => void): Promise<QuerySetRun>;
  /** Cancels the running query set. */
  cancel(): void;
  /** Drops cached indexes and vectors of a corpus (after it is deleted). */
  forget(corpusId: string): void;
}
