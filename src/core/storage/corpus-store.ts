import type { AnalyzerOptions } from '../text/index.ts';
import type { CorpusDocument, CorpusQuery, IngestIssue, Qrel } from '../corpus/index.ts';
import type { SerializedBm25Index } from '../bm25/index.ts';
import type { EmbeddingSetRecord } from './vector-store.ts';

/** A stored corpus, as listed to the user. */
export interface CorpusRecord {
  id: string;
  /** Shown to the user; renamable. */
  name: string;
  createdAt: number;
  /**
   * `ingesting` while documents are being written; only `ready` corpora are listed or searched. A corpus left
   * `ingesting` by a closed tab is removed on the next start.
   */
  status: 'ingesting' | 'ready';
  documentCount: number;
  queryCount: number;
  qrelCount: number;
  /** Queries with at least one gold answer (multi-hop question sets). */
  questionCount: number;
  /** The analyzer the BM25 index was built with. */
  analyzer: AnalyzerOptions;
  /** File paths it was loaded from. */
  sources: string[];
  /** Size of the loaded files in bytes. */
  bytes: number;
  /** Problems found while loading (the first ones; `issueCount` counts all). */
  issues: IngestIssue[];
  issueCount: number;
  /** Content checksum of the documents (`documentsChecksum`), computed while loading; absent on older corpora. */
  checksum?: string;
  /** Set for a corpus served by a workbench server (`dsw serve`): only this reference is stored here. */
  remote?: RemoteCorpusRef;
}

/** Where a remote corpus lives and what it is (the token is kept apart, in the settings store). */
export interface RemoteCorpusRef {
  /** The server's address, e.g. http://127.0.0.1:8790. */
  server: string;
  /** The corpus id on that server. */
  corpusId: string;
  /** The server's embedding sets when it was connected (what dense pipelines can choose). */
  embeddingSets: EmbeddingSetRecord[];
}

/** What the loader writes once every document is stored: the index and the final counts. */
export interface CorpusCommit {
  index: SerializedBm25Index;
  documentCount: number;
  queryCount: number;
  qrelCount: number;
  questionCount: number;
  issues: IngestIssue[];
  issueCount: number;
  /** Content checksum of the documents. */
  checksum?: string;
}

/** A store full of corpora: IndexedDB in the browser, memory in tests. Every method is one transaction. */
export interface CorpusStore {
  /** Ready corpora, newest first. */
  listCorpora(): Promise<CorpusRecord[]>;
  getCorpus(id: string): Promise<CorpusRecord | undefined>;
  /** Creates an `ingesting` corpus. */
  beginCorpus(record: CorpusRecord): Promise<void>;
  /** Adds a batch of documents, queries and qrels to an `ingesting` corpus, atomically. */
  putBatch(corpusId: string, batch: { documents: CorpusDocument[]; queries: CorpusQuery[]; qrels: Qrel[] }): Promise<void>;
  /** Stores the index and marks the corpus `ready`, atomically. */
  commitCorpus(corpusId: string, commit: CorpusCommit): Promise<void>;
  /** Removes a corpus and everything stored for it. */
  deleteCorpus(corpusId: string): Promise<void>;
  renameCorpus(corpusId: string, name: string): Promise<void>;
  /** Corpora still `ingesting` (left by a closed tab, or being loaded elsewhere right now). */
  listIncomplete(): Promise<CorpusRecord[]>;
  getDocuments(corpusId: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>>;
  /**
   * Documents a page at a time (for browsing, embedding and exports), each once, in an order fixed by the store
   * (id order, or load order); a page continues after the id `after`.
   */
  listDocuments(corpusId: string, options: { after?: string; limit: number }): Promise<CorpusDocument[]>;
  getQueries(corpusId: string): Promise<CorpusQuery[]>;
  getQrels(corpusId: string): Promise<Qrel[]>;
  getBm25Index(corpusId: string): Promise<SerializedBm25Index | undefined>;
}
