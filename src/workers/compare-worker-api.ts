import type { RunComparison } from '../core/index.ts';

/** What to compare: runs of one corpus, by id, scored against the corpus's stored qrels. */
export interface CompareRequest {
  corpusId: string;
  baselineId: string;
  /** Runs compared with the baseline (result rows use these ids as `run`). */
  runIds: string[];
  measures: string[];
  permutations: number;
  seed: number;
}

/** What the comparison worker offers the UI (through comlink). Cancel by terminating the worker. */
export interface CompareWorkerApi {
  /** `onProgress(done, total)` after each compared run. */
  compare(request: CompareRequest, onProgress?: (done: number, total: number) => void): Promise<RunComparison>;
}
