import type { IDBPDatabase } from 'idb';
import type { CorpusStore, StorageAfterFailure } from '../core/index.ts';
import { corpusKeyRange, type WorkbenchDb } from './database.ts';

const CORPUS_ROW_STORES = ['documents', 'documentBlocks', 'queries', 'qrels', 'indexes'] as const;

async function corpusRows(db: IDBPDatabase<WorkbenchDb>, corpusId: string): Promise<number> {
  const range = corpusKeyRange(corpusId);
  const counts = await Promise.all(CORPUS_ROW_STORES.map((store) => db.count(store, range)));
  return counts.reduce((a, b) => a + b, 0) + (await db.count('corpora', corpusId));
}

/** `navigator.storage.estimate()` with Chromium's per-kind breakdown, when the browser has it. */
async function estimate(): Promise<StorageAfterFailure['estimate']> {
  if (!globalThis.navigator?.storage?.estimate) return undefined;
  const e = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number; caches?: number } };
  return {
    usage: e.usage ?? 0,
    quota: e.quota ?? 0,
    ...(e.usageDetails ? { indexedDb: e.usageDetails.indexedDB ?? 0, caches: e.usageDetails.caches ?? 0 } : {}),
  };
}

/**
 * After a load of `corpusId` was refused for quota: makes sure none of its rows remain (deleting again when the first
 * clean-up was refused too), then measures what the site stores, for words that match what helps.
 */
export async function storageAfterFailedLoad(db: IDBPDatabase<WorkbenchDb>, store: CorpusStore, corpusId: string): Promise<StorageAfterFailure> {
  let leftoverRows = await corpusRows(db, corpusId);
  if (leftoverRows > 0) {
    await store.deleteCorpus(corpusId).catch(() => undefined);
    leftoverRows = await corpusRows(db, corpusId);
  }
  const [corpora, embeddingSets, runs, hdsRuns] = await Promise.all([
    db.count('corpora'),
    db.count('embeddingSets'),
    db.count('runs'),
    db.count('hdsRuns'),
  ]);
  return { estimate: await estimate(), leftoverRows, stored: { corpora, embeddingSets, runs: runs + hdsRuns } };
}
