// Browser storage: IndexedDB implementations of the core's storage interfaces.
export { openWorkbenchDb, DATABASE_NAME } from './database.ts';
export { IdbCorpusStore, isQuotaError } from './idb-corpus-store.ts';
export { removeIncompleteCorpora, ingestLockName } from './incomplete-corpora.ts';
export { IdbRunStore } from './runs-store.ts';
export { IdbVectorStore } from './vectors-store.ts';
