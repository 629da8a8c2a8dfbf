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
import { INDEX_PART_BYTES, joinParts, splitIntoParts } from './index-parts.ts';
import { guardQuota } from './quota.ts';

/** The stores that hold a corpus's own rows. */
export const CORPUS_STORES = ['corpora', 'documents', 'queries', 'qrels', 'indexes'] as const;

/** Deletes a corpus's own rows within `tx` (which spans CORPUS_STORES). */
export function deleteCorpusRows(tx: WorkbenchWriteTx, corpusId: string): Promise<unknown> {
  const range = corpusKeyRange(corpusId);
  return Promise.all([
    tx.objectStore('corpora').delete(corpusId),
    tx.objectStore('documents').delete(range),
    tx.objectStore('queries').delete(range),
    tx.objectStore('qrels').delete(range),
    tx.objectStore('indexes').delete(range),
  ]);
}


function strip<T extends { corpusId: string }>(row: T): Omit<T, 'corpusId'> {
  const { corpusId: _, ...rest } = row;
  return rest;
}

/** CorpusStore over IndexedDB. */
export class IdbCorpusStore implements CorpusStore {
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
      const tx = this.db.transaction(['documents', 'queries', 'qrels'], 'readwrite');
      const documents = tx.objectStore('documents');
      const queries = tx.objectStore('queries');
      const qrels = tx.objectStore('qrels');
      // Requests are queued without awaiting each one (IndexedDB runs them in order within the transaction);
      // Promise.all also handles their rejections when the transaction aborts.
      const requests: Promise<unknown>[] = [];
      for (const d of batch.documents) requests.push(documents.put({ ...d, corpusId }));
      for (const q of batch.queries) requests.push(queries.put({ ...q, corpusId }));
      for (const r of batch.qrels) requests.push(qrels.put({ ...r, corpusId }));
      await Promise.all([...requests, tx.done]);
    });
  }

  commitCorpus(corpusId: string, commit: CorpusCommit): Promise<void> {
    return guardQuota(async () => {
      const tx = this.db.transaction(['corpora', 'indexes'], 'readwrite');
      const corpora = tx.objectStore('corpora');
      const record = await corpora.get(corpusId);
      if (!record) throw new Error(`Corpus ${corpusId} vanished while it was being loaded`);
      const { index, ...counts } = commit;
      const { head, parts } = splitIntoParts(index, this.indexPartBytes);
      const indexes = tx.objectStore('indexes');
      await Promise.all([
        indexes.put({ corpusId, kind: 'bm25', index: head }),
        ...parts.map((part) => indexes.put({ corpusId, kind: `bm25/${part.path}/${part.part}`, part })),
        corpora.put({ ...record, ...counts, status: 'ready' }),
        tx.done,
      ]);
    });
  }

  async deleteCorpus(corpusId: string): Promise<void> {
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

  async getDocuments(corpusId: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>> {
    const tx = this.db.transaction('documents');
    const rows = await Promise.all(ids.map((id) => tx.store.get([corpusId, id])));
    await tx.done;
    return rows.map((row) => (row ? (strip(row) as CorpusDocument) : undefined));
  }

  async listDocuments(corpusId: string, options: { after?: string; limit: number }): Promise<CorpusDocument[]> {
    const lower = options.after === undefined ? [corpusId] : [corpusId, options.after];
    const range = IDBKeyRange.bound(lower, [corpusId, []], options.after !== undefined, false);
    const rows = await this.db.getAll('documents', range, options.limit);
    return rows.map((row) => strip(row) as CorpusDocument);
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
