import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Bm25Index, StorageFullError } from '../core/index.ts';
import { describeCorpusStoreContract } from '../test-support/corpus-store-contract.ts';
import { corpusRecord, storeCorpus } from '../test-support/stored-corpus.ts';
import { openWorkbenchDb } from './database.ts';
import { IdbCorpusStore } from './idb-corpus-store.ts';
import { removeIncompleteCorpora, ingestLockName } from './incomplete-corpora.ts';

let n = 0;
const freshStore = async () => new IdbCorpusStore(await openWorkbenchDb(`test-${++n}`));

describeCorpusStoreContract('IdbCorpusStore', freshStore);

describe('IdbCorpusStore index rows', () => {
  it('stores a large index as several rows and reads back one that searches the same', async () => {
    const db = await openWorkbenchDb(`test-${++n}`);
    const store = new IdbCorpusStore(db, 256);
    const documents = Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, title: '', text: `salt ${i % 7 ? 'harbour' : 'quay'} mill ${i}` }));
    await storeCorpus(store, 'c1', documents);
    const rows = await db.getAll('indexes');
    expect(rows.length).toBeGreaterThan(3);
    const original = Bm25Index.create();
    original.addAll(documents);
    const restored = Bm25Index.restore((await store.getBm25Index('c1'))!);
    expect(restored.search('quay mill', 20)).toEqual(original.search('quay mill', 20));
    await store.deleteCorpus('c1');
    expect(await db.getAll('indexes')).toEqual([]);
  });
});

describe('IdbCorpusStore document blocks', () => {
  const documents = Array.from({ length: 23 }, (_, i) => ({ id: `d${(i * 7) % 23}`, title: i % 2 ? `T${i}` : '', text: `text ${i}` }));

  async function loadInBatches(store: IdbCorpusStore, size: number) {
    await store.beginCorpus(corpusRecord('c1'));
    for (let i = 0; i < documents.length; i += size) await store.putBatch('c1', { documents: documents.slice(i, i + size), queries: [], qrels: [] });
    const index = Bm25Index.create();
    index.addAll(documents);
    await store.commitCorpus('c1', { index: index.serialize(), documentCount: documents.length, queryCount: 0, qrelCount: 0, questionCount: 0, issues: [], issueCount: 0 });
  }

  it('writes one row per batch plus a directory, and finds documents across blocks', async () => {
    const db = await openWorkbenchDb(`test-${++n}`);
    const store = new IdbCorpusStore(db);
    await loadInBatches(store, 5);
    expect(await db.count('documentBlocks')).toBe(5 + 1);
    expect(await db.count('documents')).toBe(0);
    const wanted = ['d22', 'missing', 'd0', 'd3', 'd3'];
    const expected = wanted.map((id) => documents.find((d) => d.id === id));
    expect(await store.getDocuments('c1', wanted)).toEqual(expected);
    // A second store (another worker) reads the directory back.
    expect(await new IdbCorpusStore(db).getDocuments('c1', wanted)).toEqual(expected);
  });

  it('lists in load order, pages of any size continuing after an id', async () => {
    const store = await freshStore();
    await loadInBatches(store, 4);
    for (const limit of [1, 3, 4, 9, 50]) {
      const seen: string[] = [];
      for (let page = await store.listDocuments('c1', { limit }); page.length > 0; ) {
        expect(page.length).toBeLessThanOrEqual(limit);
        seen.push(...page.map((d) => d.id));
        page = await store.listDocuments('c1', { after: seen.at(-1)!, limit });
      }
      expect(seen).toEqual(documents.map((d) => d.id));
    }
    await expect(store.listDocuments('c1', { after: 'nope', limit: 2 })).rejects.toThrow('no document with that id');
  });

  it('deletes the blocks with the corpus', async () => {
    const db = await openWorkbenchDb(`test-${++n}`);
    const store = new IdbCorpusStore(db);
    await loadInBatches(store, 6);
    await store.deleteCorpus('c1');
    expect(await db.count('documentBlocks')).toBe(0);
    expect(await store.getDocuments('c1', ['d0'])).toEqual([undefined]);
  });

  it('still reads a corpus stored one row per document (before blocks), in id order', async () => {
    const db = await openWorkbenchDb(`test-${++n}`);
    const store = new IdbCorpusStore(db);
    await store.beginCorpus(corpusRecord('old'));
    for (const d of documents.slice(0, 6)) await db.put('documents', { ...d, corpusId: 'old' });
    expect(await store.getDocuments('old', ['d7', 'x'])).toEqual([documents[1], undefined]);
    const ids = documents.slice(0, 6).map((d) => d.id).sort();
    expect((await store.listDocuments('old', { limit: 10 })).map((d) => d.id)).toEqual(ids);
    expect((await store.listDocuments('old', { after: ids[2], limit: 2 })).map((d) => d.id)).toEqual(ids.slice(3, 5));
  });
});

describe('IdbCorpusStore failures', () => {
  it('turns a quota failure into StorageFullError and keeps what was stored', async () => {
    const store = await freshStore();
    await store.beginCorpus(corpusRecord('c1'));
    await store.putBatch('c1', { documents: [{ id: 'a', title: '', text: 'kept' }], queries: [], qrels: [] });
    const db = (store as unknown as { db: { transaction: (...args: unknown[]) => unknown } }).db;
    const original = db.transaction.bind(db);
    // Make the next write transaction fail the way a full disk does.
    db.transaction = (...args: unknown[]) => {
      const tx = original(...args) as { objectStore(name: string): { put: (...a: unknown[]) => Promise<unknown> } };
      const objectStore = tx.objectStore.bind(tx);
      tx.objectStore = (name: string) => {
        const os = objectStore(name);
        os.put = () => Promise.reject(new DOMException('quota', 'QuotaExceededError'));
        return os;
      };
      return tx;
    };
    await expect(store.putBatch('c1', { documents: [{ id: 'b', title: '', text: 'lost' }], queries: [], qrels: [] })).rejects.toBeInstanceOf(
      StorageFullError,
    );
    db.transaction = original;
    expect(await store.getDocuments('c1', ['a', 'b'])).toEqual([{ id: 'a', title: '', text: 'kept' }, undefined]);
  });
});

describe('removeIncompleteCorpora', () => {
  it('removes half-written corpora unless their loader still holds the lock', async () => {
    const store = await freshStore();
    await store.beginCorpus(corpusRecord('dead', { name: 'dead' }));
    await store.beginCorpus(corpusRecord('alive', { name: 'alive' }));
    await store.putBatch('dead', { documents: [{ id: 'x', title: '', text: 'half' }], queries: [], qrels: [] });
    const locks = { query: async () => ({ held: [{ name: ingestLockName('alive') }] }) } as unknown as LockManager;
    expect(await removeIncompleteCorpora(store, locks)).toEqual(['dead']);
    expect((await store.listIncomplete()).map((c) => c.id)).toEqual(['alive']);
    expect(await store.getDocuments('dead', ['x'])).toEqual([undefined]);
  });
});
