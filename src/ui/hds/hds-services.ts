import * as Comlink from 'comlink';
import { openWorkbenchDb } from '../../storage/index.ts';
import { HdsStore } from '../../storage/hds-store.ts';
import type { HdsWorkerApi } from '../../workers/hds-worker-api.ts';

let store: Promise<HdsStore> | null = null;
let worker: Comlink.Remote<HdsWorkerApi> | null = null;

/** Saved runs and model settings of this browser. */
export function getHdsStore(): Promise<HdsStore> {
  store ??= openWorkbenchDb().then((db) => new HdsStore(db));
  return store;
}

/** The worker that runs HDS and the baselines (created on first use). */
export function getHdsWorker(): Comlink.Remote<HdsWorkerApi> {
  worker ??= Comlink.wrap<HdsWorkerApi>(new Worker(new URL('../../workers/hds.worker.ts', import.meta.url), { type: 'module', name: 'hds' }));
  return worker;
}

/** Names of the Web Locks held in this origin (running batches hold one), or null when the browser cannot tell. */
export async function heldLocks(): Promise<Set<string> | null> {
  if (!navigator.locks?.query) return null;
  const snapshot = await navigator.locks.query();
  return new Set((snapshot.held ?? []).map((lock) => lock.name ?? ''));
}
