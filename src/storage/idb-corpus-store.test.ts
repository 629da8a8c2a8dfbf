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
