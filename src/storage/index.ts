// Browser storage: IndexedDB implementations of the core's storage interfaces.
export { openWorkbenchDb, DATABASE_NAME } from './database.ts';
export { IdbCorpusStore } from './idb-corpus-store.ts';
export { isQuotaError, guardQuota } from './quota.ts';
export { removeIncompleteCorpora, ingestLockName } from './incomplete-corpora.ts';
export { IdbRunStore } from './runs-store.ts';
export { IdbVectorStore } from './vectors-store.ts';
export { IdbAgentRunStore } from './agent-run-store.ts';
export { IdbSettingsStore } from './settings-store.ts';
export { IdbCorpusRemoval } from './corpus-removal.ts';
export { storageAfterFailedLoad } from './storage-after-failure.ts';
