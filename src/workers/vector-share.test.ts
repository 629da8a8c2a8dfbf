import { describe, expect, it } from 'vitest';
import { loadCompactVectors, loadVectorMatrix, searchCompact, searchDense, shareableVectorSet, vectorSetIdentity, type VectorStore } from '../core/index.ts';
import { randomRows, seededRandom } from '../test-support/random-vectors.ts';
import { storedSet, storedSetModel as model } from '../test-support/stored-vector-set.ts';
import { loadVectorSet, VectorShareBroker, type VectorShare } from './vector-share.ts';

const queries = Array.from({ length: 6 }, (_, q) => ({ vector: randomRows(seededRandom(90 + q), 1, 24), model }));

/** `store` with its chunk reads counted. */
function counting(store: VectorStore) {
  const reads = { chunks: 0 };
  const counted = Object.create(store, {
    getChunk: { value: (...args: Parameters<VectorStore['getChunk']>) => (reads.chunks++, store.getChunk(...args)) },
    getChunks: { value: (...args: Parameters<VectorStore['getChunks']>) => (reads.chunks++, store.getChunks(...args)) },
    chunkRowReader: { value: (...args: Parameters<NonNullable<VectorStore['chunkRowReader']>>) => (reads.chunks++, store.chunkRowReader!(...args)) },
  }) as VectorStore;
  return { counted, reads };
}

/** A worker's view of `broker` whose sets go through a real postMessage, as between threads. */
function overPorts(broker: VectorShareBroker, worker: string): VectorShare {
  const view = broker.forWorker(worker);
  const post = <T>(value: T) =>
    new Promise<T>((resolve) => {
      const { port1, port2 } = new MessageChannel();
      port2.onmessage = (event) => (port1.close(), port2.close(), resolve(event.data as T));
      port1.postMessage(value);
    });
  return { take: async (identity) => post(await view.take(await post(identity))), offer: async (set) => view.offer(await post(set)) };
}

describe('loadVectorSet with a broker', () => {
  it.each(['float32', 'compact'] as const)('the second worker adopts the first one’s %s set instead of reading storage; hits are identical', async (form) => {
    const { store, set } = await storedSet(40);
    const broker = new VectorShareBroker();
    const first = counting(store);
    const a = await loadVectorSet(first.counted, set, form, overPorts(broker, 'retrieval'));
    expect(a.shared).toBe(false);
    expect(first.reads.chunks).toBeGreaterThan(0);
    const second = counting(store);
    const b = await loadVectorSet(second.counted, set, form, overPorts(broker, 'gqr-0'));
    expect(b.shared).toBe(true);
    if (form === 'float32') expect(second.reads.chunks).toBe(0); // the compact form reads float rows only to rescore
    const key = JSON.stringify(['c', 'm', form]);
    expect(broker.events).toEqual([{ kind: 'loaded', worker: 'retrieval', key }, { kind: 'shared', worker: 'gqr-0', key }]);
    const unshared = await loadVectorSet(store, set, form, null);
    for (const query of queries) {
      const search = async (loaded: typeof a.stored) => ('matrix' in loaded ? searchDense(loaded.matrix, query, 5) : searchCompact(loaded.compact, query, 5));
      expect(await search(b.stored)).toEqual(await search(unshared.stored));
      expect(await search(a.stored)).toEqual(await search(unshared.stored));
    }
    if ('matrix' in a.stored && 'matrix' in b.stored) {
      a.stored.matrix.rows.row(0)[0] = 0.25; // one memory: written through one worker's view, read through the other's
      expect(b.stored.matrix.rows.row(0)[0]).toBe(0.25);
    }
  });

  it('a set embedded again is loaded from storage, and replaces the stale one', async () => {
    const { store, set } = await storedSet(40);
    const broker = new VectorShareBroker();
    await loadVectorSet(store, set, 'float32', broker.forWorker('retrieval'));
    const again = { ...set, createdAt: set.createdAt + 1, updatedAt: set.updatedAt + 1 };
    const reloaded = await loadVectorSet(store, again, 'float32', broker.forWorker('gqr-0'));
    expect(reloaded.shared).toBe(false);
    expect(broker.events.map((e) => `${e.kind} ${e.worker}`)).toEqual(['loaded retrieval', 'loaded gqr-0']);
    expect((await loadVectorSet(store, again, 'float32', broker.forWorker('hds'))).shared).toBe(true);
    expect((await loadVectorSet(store, set, 'float32', broker.forWorker('hds'))).shared).toBe(false);
  });

  it('without a broker (no cross-origin isolation) every worker loads its own copy in plain memory', async () => {
    const { store, set } = await storedSet(40);
    const loaded = await loadVectorSet(store, set, 'float32', null);
    expect(loaded.shared).toBe(false);
    if (!('matrix' in loaded.stored)) throw new Error('expected a matrix');
    expect(shareableVectorSet(vectorSetIdentity(set, 'float32'), loaded.stored)).toBeNull();
  });

  it('a broker that fails to answer costs only the sharing: the worker loads from storage', async () => {
    const { store, set } = await storedSet(20);
    const broken: VectorShare = { take: () => Promise.reject(new Error('port closed')), offer: () => Promise.reject(new Error('port closed')) };
    const loaded = await loadVectorSet(store, set, 'float32', broken);
    expect(loaded.shared).toBe(false);
    expect('matrix' in loaded.stored && loaded.stored.matrix.size).toBe(20);
  });
});

describe('VectorShareBroker', () => {
  async function shareable(corpusId: string) {
    const { store, set } = await storedSet(20, corpusId);
    return shareableVectorSet(vectorSetIdentity(set, 'float32'), { matrix: await loadVectorMatrix(store, set, { shared: true }) })!;
  }

  it('keeps the first offer of a set (a second worker that missed at the same time keeps its own)', async () => {
    const broker = new VectorShareBroker();
    const first = await shareable('c');
    const second = await shareable('c');
    broker.offer(first, 'a');
    broker.offer({ ...second, identity: first.identity }, 'b'); // the same stored set, loaded twice
    expect(broker.take(first.identity, 'c')).toBe(first);
    const newer = { ...second, identity: { ...first.identity, updatedAt: first.identity.updatedAt + 1 } };
    broker.offer(newer, 'b'); // a newer record of the set (embedded again) replaces it
    expect(broker.take(first.identity, 'c')).toBeNull(); // a worker that read the older record gets nothing
    expect(broker.take(newer.identity, 'c')).toBe(newer);
  });

  it('keeps the most recently used sets only, and forgets a deleted corpus’s sets', async () => {
    const broker = new VectorShareBroker(2);
    const [one, two, three] = [await shareable('one'), await shareable('two'), await shareable('three')];
    broker.offer(one, 'w');
    broker.offer(two, 'w');
    expect(broker.take(one.identity, 'w')).toBe(one); // one is now the most recent
    broker.offer(three, 'w');
    expect(broker.size).toBe(2);
    expect(broker.take(two.identity, 'w')).toBeNull();
    expect(broker.take(one.identity, 'w')).toBe(one);
    broker.forget('one');
    expect(broker.take(one.identity, 'w')).toBeNull();
    expect(broker.take(three.identity, 'w')).toBe(three);
  });

  it('hands each worker that takes a compact set a scanner slot of its own, the same one again, and none past the last', async () => {
    const { store, set } = await storedSet(20);
    const broker = new VectorShareBroker();
    const identity = vectorSetIdentity(set, 'compact');
    broker.offer(shareableVectorSet(identity, { compact: await loadCompactVectors(store, set) })!, 'loader');
    const slotOf = (worker: string) => {
      const taken = broker.take(identity, worker);
      return taken && 'scannerSlot' in taken ? taken.scannerSlot : null;
    };
    expect([slotOf('a'), slotOf('b'), slotOf('a'), slotOf('c'), slotOf('loader')]).toEqual([1, 2, 1, 3, 0]);
    expect(slotOf('d')).toBeNull(); // every scratch area is taken: d loads a copy of its own
    expect(broker.events.filter((e) => e.kind === 'shared').map((e) => e.worker)).toEqual(['a', 'b', 'a', 'c', 'loader']);
  });

  it('the loader and the adopter of one compact set search through different scratch areas of its memory', async () => {
    const { store, set } = await storedSet(100);
    const broker = new VectorShareBroker();
    const first = await loadVectorSet(store, set, 'compact', overPorts(broker, 'retrieval'));
    const second = await loadVectorSet(store, set, 'compact', overPorts(broker, 'gqr-0'));
    if (!('compact' in first.stored) || !('compact' in second.stored)) throw new Error('expected the compact form');
    expect(second.shared).toBe(true);
    const [a, b] = [first.stored.compact, second.stored.compact];
    expect([a.scannerSlot, b.scannerSlot]).toEqual([0, 1]);
    // In parallel threads a common scratch area would mix one query's scores into another's; here each search
    // leaves its query in its own slot.
    await searchCompact(a, queries[0]!, 5);
    await searchCompact(b, queries[1]!, 5);
    const slotQuery = (slot: number) => Array.from(new Int16Array(a.memory.buffer, a.slotOffset(slot), 24));
    expect(slotQuery(0)).not.toEqual(slotQuery(1));
    expect(slotQuery(1).some((v) => v !== 0)).toBe(true);
  });

  it('workers that take a float32 set lying in an arena scan it in place through slots of their own; past the last, by copy', async () => {
    const { store, set } = await storedSet(40, 'c', 32); // 32 dimensions: whole 16-float steps, so an arena
    const broker = new VectorShareBroker();
    const loaded = [];
    for (const worker of ['retrieval', 'gqr-0', 'gqr-1', 'gqr-2', 'gqr-3']) {
      const { stored, shared } = await loadVectorSet(store, set, 'float32', overPorts(broker, worker));
      if (!('matrix' in stored)) throw new Error('expected a matrix');
      loaded.push({ rows: stored.matrix.rows, matrix: stored.matrix, shared });
    }
    expect(loaded.map((l) => l.shared)).toEqual([false, true, true, true, true]);
    expect(loaded.map((l) => (l.rows.arena ? l.rows.scannerSlot : 'by copy'))).toEqual([0, 1, 2, 3, 'by copy']);
    const reference = (await loadVectorSet(store, set, 'float32', null)).stored;
    if (!('matrix' in reference)) throw new Error('expected a matrix');
    const random = seededRandom(44);
    for (let q = 0; q < 4; q++) {
      const query = { vector: randomRows(random, 1, 32), model: reference.matrix.model };
      const expected = searchDense(reference.matrix, query, 6, { kernels: 'js' });
      for (const { matrix } of loaded) expect(searchDense(matrix, query, 6)).toEqual(expected);
    }
  });

  it('drops a stale set when asked for the stored one, and hands out nothing for another form', async () => {
    const broker = new VectorShareBroker();
    const set = await shareable('c');
    broker.offer(set, 'w');
    expect(broker.take({ ...set.identity, form: 'compact' }, 'w')).toBeNull();
    expect(broker.take({ ...set.identity, updatedAt: set.identity.updatedAt + 1 }, 'w')).toBeNull();
    expect(broker.size).toBe(0);
  });
});
