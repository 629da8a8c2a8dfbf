import { IdbCorpusStore, openWorkbenchDb, removeIncompleteCorpora } from '../../storage/index.ts';

let storePromise: Promise<IdbCorpusStore> | null = null;

/** The corpus store of this browser; half-written corpora from a closed tab are removed on first use. */
export function getCorpusStore(): Promise<IdbCorpusStore> {
  storePromise ??= openWorkbenchDb().then(async (db) => {
    const store = new IdbCorpusStore(db);
    const removed = await removeIncompleteCorpora(store);
    if (removed.length > 0) console.info(`Removed half-loaded corpora: ${removed.join(', ')}`);
    return store;
  });
  return storePromise;
}

export interface StorageInfo {
  usage: number;
  quota: number;
  persisted: boolean;
}

/** How much this site stores and may store, and whether the browser keeps it under storage pressure. */
export async function getStorageInfo(): Promise<StorageInfo | null> {
  if (!navigator.storage?.estimate) return null;
  const { usage = 0, quota = 0 } = await navigator.storage.estimate();
  const persisted = (await navigator.storage.persisted?.()) ?? false;
  return { usage, quota, persisted };
}

/** Asks the browser not to evict this site's data; returns whether it agreed. */
export async function requestPersistence(): Promise<boolean> {
  return (await navigator.storage?.persist?.()) ?? false;
}
