import type { IDBPDatabase } from 'idb';
import {
  type CorpusCommit,
  type CorpusDocument,
  type CorpusQuery,
  type CorpusRecord,
  type CorpusStore,
  type Qrel,
  type SerializedBm25Index,
} from '../core/index.ts';
import { corpusKeyRange, type WorkbenchDb, type WorkbenchWriteTx } from './database.ts';
import { DIRECTORY_START, DirectoryBuilder, DocumentDirectory, type StoredDocumentBlock, type StoredDocumentDirectory } from './document-blocks.ts';
import { INDEX_PART_BYTES, joinParts, splitIntoParts } from './index-parts.ts';
import { guardQuota } from './quota.ts';

/** The stores that hold a corpus's own rows. */
export const CORPUS_STORES = ['corpora', 'documents', 'documentBlocks', 'queries', 'qrels', 'indexes'] as const;

/** Deletes a corpus's own rows within `tx` (which spans CORPUS_STORES). */
export function deleteCorpusRows(tx: WorkbenchWriteTx, corpusId: string): Promise<unknown> {
  const range = corpusKeyRange(corpusId);
  return Promise.all([
    tx.objectStore('corpora').delete(corpusId),
    tx.objectStore('documents').delete(range),
    tx.objectStore('documentBlocks').delete(range),
    tx.objectStore('queries').delete(range),
    tx.objectStore('qrels').delete(range),
    tx.objectStore('indexes').delete(range),
  ]);
}


function strip<T extends { corpusId: string }>(row: T): Omit<T, 'corpusId'> {
  const { corpusId: _, ...rest } = row;
  return rest;
}

/**
 * CorpusStore over IndexedDB. Documents are written as one row per batch (`document-blocks.ts`) and listed in load
 * order; corpora stored before that (one row per document) are still read, listed in id order.
 */
export class IdbCorpusStore implements CorpusStore {
  /** Directories of corpora being loaded through this store, written at commit. */
  private readonly loading = new Map<string, DirectoryBuilder>();
  /** Directories read back (null: none yet, or a corpus stored one row per document). */
  private readonly directories = new Map<string, Promise<DocumentDirectory | null>>();

  /** `indexPartBytes`: typed arrays of the index larger than this are stored as several rows. */
  constructor(
    private readonly db: IDBPDatabase<WorkbenchDb>,
    private readonly indexPartBytes = INDEX_PART_BYTES,
  ) {}

  async listCorpora(): Promise<CorpusRecord[]> {
    const all = await this.db.getAll('corpora');
    return all.filter((c) => c.status === 'ready').sort((a, b) => b.createdAt - a.createdAt);
  }

  async listIncomplete(): Promise<CorpusRecord[]> {
    return (await this.db.getAll('corpora')).filter((c) => c.status !== 'ready');
  }

  getCorpus(id: string): Promise<CorpusRecord | undefined> {
    return this.db.get('corpora', id);
  }

  /** Stores the reference to a corpus served elsewhere (`record.remote`), ready at once: nothing else is kept here. */
  putRemoteCorpus(record: CorpusRecord & { remote: NonNullable<CorpusRecord['remote']> }): Promise<void> {
    return guardQuota(async () => {
      await this.db.put('corpora', { ...record, status: 'ready' });
    });
  }

  beginCorpus(record: CorpusRecord): Promise<void> {
    return guardQuota(async () => {
      const tx = this.db.transaction('corpora', 'readwrite');
      if (await tx.store.get(record.id)) throw new Error(`A corpus with id ${record.id} already exists`);
      await tx.store.put({ ...record, status: 'ingesting' });
      await tx.done;
    });
  }

  putBatch(corpusId: string, batch: { documents: CorpusDocument[]; queries: CorpusQuery[]; qrels: Qrel[] }): Promise<void> {
    return guardQuota(async () => {
      const tx = this.db.transaction(['documentBlocks', 'queries', 'qrels'], 'readwrite');
      const queries = tx.objectStore('queries');
      const qrels = tx.objectStore('qrels');
      // Requests are queued without awaiting each one (IndexedDB runs them in order within the transaction);
      // Promise.all also handles their rejections when the transaction aborts.
      const requests: Promise<unknown>[] = [];
      if (batch.documents.length > 0) {
        let directory = this.loading.get(corpusId);
        if (!directory) this.loading.set(corpusId, (directory = new DirectoryBuilder()));
        const block: StoredDocumentBlock = { corpusId, start: directory.add(batch.documents), documents: batch.documents };
        requests.push(tx.objectStore('documentBlocks').put(block));
      }
      for (const q of batch.queries) requests.push(queries.put({ ...q, corpusId }));
      for (const r of batch.qrels) requests.push(qrels.put({ ...r, corpusId }));
      await Promise.all([...requests, tx.done]);
    });
  }

  commitCorpus(corpusId: string, commit: CorpusCommit): Promise<void> {
    return guardQuota(async () => {
      const tx = this.db.transaction(['corpora', 'indexes', 'documentBlocks'], 'readwrite');
      const corpora = tx.objectStore('corpora');
      const record = await corpora.get(corpusId);
      if (!record) throw new Error(`Corpus ${corpusId} vanished while it was being loaded`);
      const { index, ...counts } = commit;
      const { head, parts } = splitIntoParts(index, this.indexPartBytes);
      const indexes = tx.objectStore('indexes');
      const directory = this.loading.get(corpusId);
      await Promise.all([
        ...(directory ? [tx.objectStore('documentBlocks').put(directory.row(corpusId))] : []),
        indexes.put({ corpusId, kind: 'bm25', index: head }),
        ...parts.map((part) => indexes.put({ corpusId, kind: `bm25/${part.path}/${part.part}`, part })),
        corpora.put({ ...record, ...counts, status: 'ready' }),
        tx.done,
      ]);
      this.loading.delete(corpusId);
      this.directories.delete(corpusId);
    });
  }

  async deleteCorpus(corpusId: string): Promise<void> {
    this.loading.delete(corpusId);
    this.directories.delete(corpusId);
    const tx = this.db.transaction([...CORPUS_STORES], 'readwrite');
    await Promise.all([deleteCorpusRows(tx as unknown as WorkbenchWriteTx, corpusId), tx.done]);
  }

  async renameCorpus(corpusId: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) throw new Error('A corpus name cannot be empty');
    const tx = this.db.transaction('corpora', 'readwrite');
    const record = await tx.store.get(corpusId);
    if (!record) throw new Error(`No corpus ${corpusId}`);
    await tx.store.put({ ...record, name: trimmed });
    await tx.done;
  }

  private directory(corpusId: string): Promise<DocumentDirectory | null> {
    // A corpus being loaded through this store: what is written so far.
    const loading = this.loading.get(corpusId);
    if (loading) return Promise.resolve(new DocumentDirectory(loading.row(corpusId)));
    let directory = this.directories.get(corpusId);
    if (!directory) {
      directory = this.db
        .get('documentBlocks', [corpusId, DIRECTORY_START])
        .then((row) => (row ? new DocumentDirectory(row as StoredDocumentDirectory) : null));
      this.directories.set(corpusId, directory);
      // Only a directory found is kept: a corpus still loading (or stored one row per document) is asked again.
      const forget = () => this.directories.get(corpusId) === directory && this.directories.delete(corpusId);
      directory.then((found) => found ?? forget(), forget);
    }
    return directory;
  }

  async getDocuments(corpusId: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>> {
    const directory = await this.directory(corpusId);
    if (!directory) {
      const tx = this.db.transaction('documents');
      const rows = await Promise.all(ids.map((id) => tx.store.get([corpusId, id])));
      await tx.done;
      return rows.map((row) => (row ? (strip(row) as CorpusDocument) : undefined));
    }
    const numbers = ids.map((id) => directory.find(id));
    const blocks = [...new Set(numbers.filter((n) => n >= 0).map((n) => directory.blockOf(n)))];
    const tx = this.db.transaction('documentBlocks');
    const rows = await Promise.all(blocks.map((b) => tx.store.get([corpusId, directory.blockStarts[b]!])));
    await tx.done;
    const byBlock = new Map(blocks.map((b, i) => [b, rows[i] as StoredDocumentBlock | undefined]));
    return numbers.map((n) => {
      if (n < 0) return undefined;
      const block = byBlock.get(directory.blockOf(n));
      return block?.documents[n - block.start];
    });
  }

  /** Documents in load order (in id order for a corpus stored one row per document), continuing after `after`. */
  async listDocuments(corpusId: string, options: { after?: string; limit: number }): Promise<CorpusDocument[]> {
    const directory = await this.directory(corpusId);
    if (!directory) {
      const lower = options.after === undefined ? [corpusId] : [corpusId, options.after];
      const range = IDBKeyRange.bound(lower, [corpusId, []], options.after !== undefined, false);
      const rows = await this.db.getAll('documents', range, options.limit);
      return rows.map((row) => strip(row) as CorpusDocument);
    }
    let from = 0;
    if (options.after !== undefined) {
      const at = directory.find(options.after);
      if (at < 0) throw new Error(`Cannot list documents after “${options.after}”: the corpus has no document with that id`);
      from = at + 1;
    }
    const to = Math.min(directory.documentCount, from + options.limit);
    if (options.limit <= 0 || from >= to) return [];
    const { blockStarts } = directory;
    const range = IDBKeyRange.bound([corpusId, blockStarts[directory.blockOf(from)]!], [corpusId, blockStarts[directory.blockOf(to - 1)]!]);
    const rows = (await this.db.getAll('documentBlocks', range)) as StoredDocumentBlock[];
    const out: CorpusDocument[] = [];
    for (const row of rows) {
      for (let i = Math.max(0, from - row.start); i < row.documents.length && row.start + i < to; i++) out.push(row.documents[i]!);
    }
    return out;
  }

  async getQueries(corpusId: string): Promise<CorpusQuery[]> {
    const rows = await this.db.getAll('queries', corpusKeyRange(corpusId));
    return rows.map((row) => strip(row) as CorpusQuery);
  }

  async getQrels(corpusId: string): Promise<Qrel[]> {
    const rows = await this.db.getAll('qrels', corpusKeyRange(corpusId));
    return rows.map((row) => strip(row) as Qrel);
  }

  async getBm25Index(corpusId: string): Promise<SerializedBm25Index | undefined> {
    // One transaction: the head and every part row (Blobs, read after the transaction ends).
    const tx = this.db.transaction('indexes');
    const [row, partRows] = await Promise.all([
      tx.store.get([corpusId, 'bm25']),
      tx.store.getAll(IDBKeyRange.bound([corpusId, 'bm25/'], [corpusId, 'bm25/\uffff'])),
      tx.done,
    ]);
    if (!row?.index) return undefined;
    return joinParts(row.index, partRows.flatMap((r) => (r.part ? [r.part] : [])));
  }
}
