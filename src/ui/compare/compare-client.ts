// The Compare page's client of the compare worker: one comparison at a time, cancelled by replacing the worker.
import * as Comlink from 'comlink';
import { abortError, type RunComparison } from '../../core/index.ts';
import type { CompareRequest } from '../../workers/compare-worker-api.ts';
import { getCompareWorker, stopCompareWorker } from '../services/workers.ts';

let rejectCurrent: ((error: Error) => void) | null = null;

/** Compares runs in the comparison worker; `onProgress(done, total)` after each run. */
export function runComparison(request: CompareRequest, onProgress: (done: number, total: number) => void): Promise<RunComparison> {
  return new Promise<RunComparison>((resolve, reject) => {
    rejectCurrent = reject;
    getCompareWorker()
      .compare(request, Comlink.proxy(onProgress))
      .then(resolve, reject)
      .finally(() => {
        if (rejectCurrent === reject) rejectCurrent = null;
      });
  });
}

/** Stops the running comparison at once (the computation cannot be interrupted, so the worker is replaced). */
export function cancelComparison(): void {
  stopCompareWorker();
  rejectCurrent?.(abortError('The comparison was cancelled'));
  rejectCurrent = null;
}
