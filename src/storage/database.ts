import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { CorpusDocument, CorpusQuery, Qrel } from '../core/index.ts';
import type { CorpusRecord, SerializedBm25Index } from '../core/index.ts';

/** Rows are keyed by [corpusId, …] so that a corpus's rows form one contiguous key range. */
export interface StoredDocument extends CorpusDocument {
  corpusId: string;
}
export interface StoredQuery extends CorpusQuery {
  corpusId: string;
}
export interface StoredQrel extends Qrel {
  corpusId: string;
}
export interface StoredIndex {
  corpusId: string;
  kind: 'bm25';
  index: SerializedBm25Index;
}

export interface WorkbenchDb extends DBSchema {
  corpora: { key: string; value: CorpusRecord };
  documents: { key: [string, string]; value: StoredDocument };
  queries: { key: [string, string]; value: StoredQuery };
  qrels: { key: [string, string, string]; value: StoredQrel };
  indexes: { key: [string, string]; value: StoredIndex };
}

export const DATABASE_NAME = 'deep-search-workbench';
export const DATABASE_VERSION = 1;

export function openWorkbenchDb(name: string = DATABASE_NAME): Promise<IDBPDatabase<WorkbenchDb>> {
  return openDB<WorkbenchDb>(name, DATABASE_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('corpora', { keyPath: 'id' });
        db.createObjectStore('documents', { keyPath: ['corpusId', 'id'] });
        db.createObjectStore('queries', { keyPath: ['corpusId', 'id'] });
        db.createObjectStore('qrels', { keyPath: ['corpusId', 'queryId', 'docId'] });
        db.createObjectStore('indexes', { keyPath: ['corpusId', 'kind'] });
      }
    },
    blocking() {
      // Another tab wants a newer schema: let it upgrade.
      void 0;
    },
  });
}

/** Every key [corpusId, …] of one corpus: arrays sort after strings, so `[id, []]` is above any `[id, string…]`. */
export function corpusKeyRange(corpusId: string): IDBKeyRange {
  return IDBKeyRange.bound([corpusId], [corpusId, []]);
}
