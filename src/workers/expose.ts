// Exposes a worker's API over comlink, only when the module runs in a worker: a test imports the same module in Node.
import * as Comlink from 'comlink';

/** Whether this code runs in a dedicated worker (not in Node, not on a page). */
export function inWorker(): boolean {
  return typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';
}

/** `Comlink.expose(api)` inside a worker; nothing elsewhere. */
export function exposeInWorker(api: object): void {
  if (inWorker()) Comlink.expose(api);
}
