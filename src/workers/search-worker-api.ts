import type { Bm25Params, CorpusDocument } from '../core/index.ts';

/** One search result with what the UI shows of it. */
export interface SearchHit {
  id: string;
  score: number;
  /** Index terms of the query that the document contains (for highlighting). */
  terms: string[];
  document: CorpusDocument | null;
}

export interface SearchResponse {
  hits: SearchHit[];
  /** Time spent searching, in ms (excluding loading the index). */
  elapsedMs: number;
  /** True when the index had to be restored from storage for this call. */
  restored: boolean;
  restoreMs: number;
}

/** What the search worker offers the UI (through comlink). */
export interface SearchWorkerApi {
  search(corpusId: string, query: string, k: number, params: Bm25Params): Promise<SearchResponse>;
  /** Drops a cached index (after a corpus is deleted). */
  forget(corpusId: string): void;
}
