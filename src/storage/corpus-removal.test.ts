import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { deleteCorpus } from '../core/index.ts';
import { questionRun } from '../test-support/agent-run-store-contract.ts';
import { sampleRun } from '../test-support/run-store-contract.ts';
import { storeCorpus } from '../test-support/stored-corpus.ts';
import { setRecord } from '../test-support/vector-store-contract.ts';
import { IdbAgentRunStore } from './agent-run-store.ts';
import { IdbCorpusRemoval } from './corpus-removal.ts';
import { openWorkbenchDb, type WorkbenchDb } from './database.ts';
import { IdbCorpusStore } from './idb-corpus-store.ts';
import { IdbRunStore } from './runs-store.ts';
import { IdbVectorStore } from './vectors-store.ts';
import type { IDBPDatabase } from 'idb';

let n = 0;

/** Two corpora, each with an embedding set, a run and an HDS run. */
async function workbench() {
  const db = await openWorkbenchDb(`corpus-removal-${++n}`);
  const stores = { corpora: new IdbCorpusStore(db), vectors: new IdbVectorStore(db), runs: new IdbRunStore(db), agentRuns: new IdbAgentRunStore(db, async () => []) };
  for (const id of ['c1', 'c2']) {
    await storeCorpus(stores.corpora, id, [{ id: `${id}-d1`, title: 'T', text: 'harbour crane' }]);
    await stores.vectors.createSet(setRecord(id, 'k1'));
    await stores.runs.saveRun(sampleRun(`${id}-r1`, id));
    await stores.agentRuns.save(await questionRun(`${id}-h1`, id));
  }
  return { db, ...stores };
}

async function contents(stores: Awaited<ReturnType<typeof workbench>>, corpusId: string) {
  return {
    corpus: !!(await stores.corpora.getCorpus(corpusId)),
    documents: (await stores.corpora.getDocuments(corpusId, [`${corpusId}-d1`])).filter(Boolean).length,
    sets: (await stores.vectors.listSets(corpusId)).length,
    runs: (await stores.runs.listRuns(corpusId)).length,
    rankings: !!(await stores.runs.getRun(`${corpusId}-r1`)),
    agentRuns: (await stores.agentRuns.list(corpusId)).length,
  };
}

const everything = { corpus: true, documents: 1, sets: 1, runs: 1, rankings: true, agentRuns: 1 };
const nothing = { corpus: false, documents: 0, sets: 0, runs: 0, rankings: false, agentRuns: 0 };

describe('deleteCorpus over IndexedDB', () => {
  it('removes the corpus with its embedding sets, runs and HDS runs, and nothing of another corpus', async () => {
    const stores = await workbench();
    const forgotten: string[] = [];
    await deleteCorpus('c1', new IdbCorpusRemoval(stores.db), (id) => void forgotten.push(id));
    expect(await contents(stores, 'c1')).toEqual(nothing);
    expect(await contents(stores, 'c2')).toEqual(everything);
    expect(forgotten).toEqual(['c1']);
  });

  it('deletes nothing when one part of the deletion fails', async () => {
    const stores = await workbench();
    // A database whose HDS-runs index fails inside the one transaction.
    const failing = new Proxy(stores.db, {
      get(target, prop) {
        if (prop !== 'transaction') return Reflect.get(target, prop, target);
        return (...args: Parameters<IDBPDatabase<WorkbenchDb>['transaction']>) => {
          const tx = target.transaction(...args);
          const objectStore = tx.objectStore.bind(tx);
          return Object.assign(tx, {
            objectStore: (name: string) => {
              if (name === 'hdsRuns') throw new Error('index unavailable');
              return objectStore(name as never);
            },
          });
        };
      },
    }) as IDBPDatabase<WorkbenchDb>;
    await expect(deleteCorpus('c1', new IdbCorpusRemoval(failing))).rejects.toThrow('index unavailable');
    expect(await contents(stores, 'c1')).toEqual(everything);
  });
});
