import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { StorageFullError } from '../core/index.ts';
import { describeCorpusStoreContract } from '../test-support/corpus-store-contract.ts';
import { corpusRecord } from '../test-support/stored-corpus.ts';
import { openWorkbenchDb } from './database.ts';
import { IdbCorpusStore } from './idb-corpus-store.ts';
import { removeIncompleteCorpora, ingestLockName } from './incomplete-corpora.ts';

let n = 0;
const freshStore = async () => new IdbCorpusStore(await openWorkbenchDb(`test-${++n}`));

describeCorpusStoreContract('IdbCorpusStore', freshStore);

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
