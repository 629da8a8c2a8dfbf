import * as Comlink from 'comlink';
import { abortError, type RunComparison } from '../../core/index.ts';
import type { CompareRequest, CompareWorkerApi } from '../../workers/compare-worker-api.ts';

let worker: Worker | null = null;
let remote: Comlink.Remote<CompareWorkerApi> | null = null;

function getRemote(): Comlink.Remote<CompareWorkerApi> {
  if (!remote) {
    worker = new Worker(new URL('../../workers/compare.worker.ts', import.meta.url), { type: 'module', name: 'compare' });
    remote = Comlink.wrap<CompareWorkerApi>(worker);
  }
  return remote;
}

let rejectCurrent: ((error: Error) => void) | null = null;

/** Compares runs in the comparison worker; `onProgress(done, total)` after each run. */
export function runComparison(request: CompareRequest, onProgress: (done: number, total: number) => void): Promise<RunComparison> {
  return new Promise<RunComparison>((resolve, reject) => {
    rejectCurrent = reject;
    getRemote()
      .compare(request, Comlink.proxy(onProgress))
      .then(resolve, reject)
      .finally(() => {
        if (rejectCurrent === reject) rejectCurrent = null;
      });
  });
}

/** Stops the running comparison at once (the computation cannot be interrupted, so the worker is replaced). */
export function cancelComparison(): void {
  worker?.terminate();
  worker = null;
  remote = null;
  rejectCurrent?.(abortError('The comparison was cancelled'));
  rejectCurrent = null;
}
