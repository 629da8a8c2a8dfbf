import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { CorpusDocument, CorpusQuery, Qrel } from '../core/index.ts';
import type { CorpusRecord, SerializedBm25Index } from '../core/index.ts';
import type { StoredHdsRun } from './hds-schema.ts';
import type { StoredDocumentBlock, StoredDocumentDirectory } from './document-blocks.ts';
import type { IndexPart } from './index-parts.ts';
import type { StoredRun } from './runs-schema.ts';
import type { StoredEmbeddingSet, StoredVectorChunk } from './vectors-schema.ts';

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
  /** `bm25` for the index (its large arrays replaced by references), `bm25/<path>/<n>` for their parts. */
  kind: string;
  index?: SerializedBm25Index;
  part?: IndexPart;
}

export interface WorkbenchDb extends DBSchema {
  corpora: { key: string; value: CorpusRecord };
  /** Documents of corpora loaded before version 2, one row each (still read). */
  documents: { key: [string, string]; value: StoredDocument };
  /** Documents in blocks of one loaded batch (`start` ≥ 0), and each corpus's directory of ids (`start` −1). */
  documentBlocks: { key: [string, number]; value: StoredDocumentBlock | StoredDocumentDirectory };
  queries: { key: [string, string]; value: StoredQuery };
  qrels: { key: [string, string, string]; value: StoredQrel };
  indexes: { key: [string, string]; value: StoredIndex };
  /** Saved retrieval runs. */
  runs: { key: string; value: StoredRun; indexes: { corpusId: string } };
  /** Embedded versions of corpora (model, progress). */
  embeddingSets: { key: [string, string]; value: StoredEmbeddingSet };
  /** Vector rows of embedding sets, in chunks. */
  vectorChunks: { key: [string, string, number]; value: StoredVectorChunk };
  /** Saved HDS and baseline runs. */
  hdsRuns: { key: string; value: StoredHdsRun; indexes: { corpusId: string } };
  /** Settings of this browser (LLM endpoints and their API keys live here and nowhere else). */
  settings: { key: string; value: unknown };
}

export const DATABASE_NAME = 'deep-search-workbench';
export const DATABASE_VERSION = 2;

export function openWorkbenchDb(name: string = DATABASE_NAME): Promise<IDBPDatabase<WorkbenchDb>> {
  return openDB<WorkbenchDb>(name, DATABASE_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('corpora', { keyPath: 'id' });
        db.createObjectStore('documents', { keyPath: ['corpusId', 'id'] });
        db.createObjectStore('queries', { keyPath: ['corpusId', 'id'] });
        db.createObjectStore('qrels', { keyPath: ['corpusId', 'queryId', 'docId'] });
        db.createObjectStore('indexes', { keyPath: ['corpusId', 'kind'] });
        db.createObjectStore('runs', { keyPath: 'id' }).createIndex('corpusId', 'corpusId');
        db.createObjectStore('embeddingSets', { keyPath: ['corpusId', 'modelKey'] });
        db.createObjectStore('vectorChunks', { keyPath: ['corpusId', 'modelKey', 'chunk'] });
        db.createObjectStore('hdsRuns', { keyPath: 'id' }).createIndex('corpusId', 'corpusId');
        db.createObjectStore('settings');
      }
      if (oldVersion < 2) db.createObjectStore('documentBlocks', { keyPath: ['corpusId', 'start'] });
    },
  });
}

/** Every key [corpusId, …] of one corpus: arrays sort after strings, so `[id, []]` is above any `[id, string…]`. */
export function corpusKeyRange(corpusId: string): IDBKeyRange {
  return IDBKeyRange.bound([corpusId], [corpusId, []]);
}

/** A read-write transaction over any stores of the workbench database (stores add their rows' deletions to it). */
export type WorkbenchWriteTx = IDBPTransaction<WorkbenchDb, StoreNames<WorkbenchDb>[], 'readwrite'>;
