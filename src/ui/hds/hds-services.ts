import * as Comlink from 'comlink';
import { IdbAgentRunStore, IdbSettingsStore, openWorkbenchDb } from '../../storage/index.ts';
import type { HdsWorkerApi } from '../../workers/hds-worker-api.ts';

let settings: Promise<IdbSettingsStore> | null = null;
let runs: Promise<IdbAgentRunStore> | null = null;
let worker: Comlink.Remote<HdsWorkerApi> | null = null;

/** Endpoint settings and API keys of this browser. */
export function getSettingsStore(): Promise<IdbSettingsStore> {
  settings ??= openWorkbenchDb().then((db) => new IdbSettingsStore(db));
  return settings;
}

/** Saved HDS and baseline runs of this browser (scrubbed of the settings' keys). */
export function getAgentRunStore(): Promise<IdbAgentRunStore> {
  runs ??= openWorkbenchDb().then(async (db) => {
    const keys = await getSettingsStore();
    return new IdbAgentRunStore(db, () => keys.secrets());
  });
  return runs;
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
