import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { StorageFullError } from '../core/index.ts';
import { describeRunStoreContract, sampleRun } from '../test-support/run-store-contract.ts';
import { openWorkbenchDb } from './database.ts';
import { IdbRunStore } from './runs-store.ts';

let n = 0;
const freshStore = async () => new IdbRunStore(await openWorkbenchDb(`runs-test-${++n}`));

describeRunStoreContract('IdbRunStore', freshStore);

describe('IdbRunStore', () => {
  it('turns a quota failure into StorageFullError and keeps the runs saved before', async () => {
    const store = await freshStore();
    await store.saveRun(sampleRun('kept', 'c1'));
    const db = (store as unknown as { db: { transaction: (...args: unknown[]) => unknown } }).db;
    const original = db.transaction.bind(db);
    db.transaction = (...args: unknown[]) => {
      // A transaction whose writes fail the way a full disk does.
      const tx = original(...args) as { done: Promise<void> };
      return { done: tx.done, store: { put: () => Promise.reject(new DOMException('quota', 'QuotaExceededError')) } };
    };
    await expect(store.saveRun(sampleRun('lost', 'c1', 'Lost run'))).rejects.toThrow(StorageFullError);
    await expect(store.saveRun(sampleRun('lost', 'c1', 'Lost run'))).rejects.toThrow('The run “Lost run” was not saved; runs and corpora stored before are intact');
    db.transaction = original;
    expect((await store.listRuns('c1')).map((r) => r.id)).toEqual(['kept']);
  });

  it('keeps a run and its rankings in separate rows, and lists only runs', async () => {
    const db = await openWorkbenchDb(`runs-test-${++n}`);
    const store = new IdbRunStore(db);
    await store.saveRun(sampleRun('r1', 'c1'));
    const rows = await db.getAll('runs');
    expect(rows.map((r) => r.row).sort()).toEqual(['rankings', 'summary']);
    expect(rows.find((r) => r.row === 'summary')).not.toHaveProperty('rankings');
    expect(await db.getAllFromIndex('runs', 'corpusId', 'c1')).toHaveLength(1);
  });

  it('refuses an id that would collide with a rankings key', async () => {
    const store = await freshStore();
    await expect(store.saveRun(sampleRun('a\u0000b', 'c1'))).rejects.toThrow('Invalid run id');
  });
});
