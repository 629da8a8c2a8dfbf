import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  embedCorpus,
  loadEmbedder,
  loadVectorMatrix,
  MemoryCorpusStore,
  VectorStorageFullError,
  type CorpusDocument,
  type Embedder,
} from '../core/index.ts';
import { storeCorpus } from '../test-support/stored-corpus.ts';
import { makeTinyModel } from '../test-support/tiny-model.ts';
import { describeVectorStoreContract, setRecord } from '../test-support/vector-store-contract.ts';
import { openWorkbenchDb } from './database.ts';
import { IdbVectorStore } from './vectors-store.ts';

let n = 0;
const freshStore = async () => new IdbVectorStore(await openWorkbenchDb(`vectors-test-${++n}`));

describeVectorStoreContract('IdbVectorStore', freshStore);

// Makes writes of vector chunks fail the way a full disk does, until the returned function is called.
function failChunkWritesWithQuota(): () => void {
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (this.name === 'vectorChunks') return Promise.reject(new DOMException('quota', 'QuotaExceededError')) as unknown as IDBRequest<IDBValidKey>;
    return put.apply(this, args);
  };
  return () => (IDBObjectStore.prototype.put = put);
}

describe('IdbVectorStore failures', () => {
  it('turns a quota failure into VectorStorageFullError and keeps every chunk stored before', async () => {
    const store = await freshStore();
    await store.createSet(setRecord('c1', 'k1'));
    await store.writeChunk('c1', 'k1', { index: 0, ids: ['a', 'b'], vectors: Float32Array.of(1, 0, 0, 1) }, [], {
      rowsDone: 2,
      lastId: 'b',
      complete: false,
      bytesAdded: 16,
    });
    const restore = failChunkWritesWithQuota();
    const write = store.writeChunk('c1', 'k1', { index: 1, ids: ['c'], vectors: Float32Array.of(0, 1) }, [], {
      rowsDone: 3,
      lastId: 'c',
      complete: true,
      bytesAdded: 8,
    });
    await expect(write).rejects.toBeInstanceOf(VectorStorageFullError);
    await expect(write).rejects.toThrow('The 2 document vector(s) stored before are kept');
    restore();
    const set = (await store.getSet('c1', 'k1'))!;
    expect([set.rowsDone, set.lastId, set.complete]).toEqual([2, 'b', false]);
    expect((await store.getChunks('c1', 'k1')).map((c) => c.ids)).toEqual([['a', 'b']]);
  });

  it('stores a chunk’s vectors as a Blob whose rows are read one by one, and reads chunks stored as arrays before', async () => {
    const db = await openWorkbenchDb(`vectors-test-${++n}`);
    const store = new IdbVectorStore(db);
    await store.createSet(setRecord('c1', 'k1', { chunkRows: 40, totalRows: 80 }));
    const vectors = Float32Array.from({ length: 40 * 2 }, (_, i) => i / 7);
    const ids = Array.from({ length: 40 }, (_, i) => `d${i}`);
    await store.writeChunk('c1', 'k1', { index: 0, ids, vectors }, [], { rowsDone: 40, lastId: 'd39', complete: false, bytesAdded: 320 });
    const stored = await db.get('vectorChunks', ['c1', 'k1', 0]);
    expect(stored!.kind === 'pooled' && stored!.vectors).toBeInstanceOf(Blob);
    const row = (r: number) => Array.from(vectors.subarray(r * 2, r * 2 + 2));
    const reader = (await store.chunkRowReader('c1', 'k1', 0))!;
    expect(reader.light).toBe(true);
    // a few rows: a read per row; many: one read of the chunk; the same values either way
    expect((await reader.rows([39, 1])).map((r) => Array.from(r))).toEqual([row(39), row(1)]);
    const many = Array.from({ length: 10 }, (_, i) => i * 4);
    expect((await reader.rows(many)).map((r) => Array.from(r))).toEqual(many.map(row));
    expect(Array.from((await store.getChunk('c1', 'k1', 0))!.vectors)).toEqual(Array.from(vectors));
    // A chunk written as a Float32Array (before Blobs) is read as it was.
    const old = Float32Array.from({ length: 40 * 2 }, (_, i) => -i);
    await db.put('vectorChunks', { corpusId: 'c1', modelKey: 'k1', chunk: 1, kind: 'pooled', ids: ids.map((id) => `${id}b`), vectors: old });
    const oldReader = (await store.chunkRowReader('c1', 'k1', 1))!;
    expect(oldReader.light).toBe(false);
    expect((await oldReader.rows([3])).map((r) => Array.from(r))).toEqual([[-6, -7]]);
    const chunks = await store.getChunks('c1', 'k1');
    expect(chunks.map((c) => [c.index, Array.from(c.vectors.subarray(0, 2))])).toEqual([
      [0, row(0)],
      [1, [-0, -1]],
    ]);
  });

  it('stores only the viewed part of a subarray', async () => {
    const store = await freshStore();
    await store.createSet(setRecord('c1', 'k1'));
    const big = Float32Array.of(9, 9, 1, 0, 9, 9);
    await store.writeChunk('c1', 'k1', { index: 0, ids: ['a'], vectors: big.subarray(2, 4) }, [], { rowsDone: 1, lastId: 'a', complete: true, bytesAdded: 8 });
    const [chunk] = await store.getChunks('c1', 'k1');
    expect(chunk!.vectors.buffer.byteLength).toBe(8);
    expect(Array.from(chunk!.vectors)).toEqual([1, 0]);
  });
});

describe('embedding into IndexedDB (tiny-bert, real inference)', () => {
  let model: ReturnType<typeof makeTinyModel>;
  let embedder: Embedder;
  const docs: CorpusDocument[] = Array.from({ length: 11 }, (_, i) => ({
    id: `d${String(i).padStart(2, '0')}`,
    title: '',
    text: `${['the cat', 'a dog', 'red car', 'blue world'][i % 4]} is ${'fast '.repeat(i + 1)}`,
  }));
  const corpora = new MemoryCorpusStore();

  beforeAll(async () => {
    model = makeTinyModel();
    embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: model.root, batchSize: 2 });
    await storeCorpus(corpora, 'c1', docs);
  });
  afterAll(async () => {
    await embedder?.dispose();
    model?.cleanup();
  });

  it('a job that died mid-chunk resumes from the last stored chunk; the vectors equal an uninterrupted run', async () => {
    const db = await openWorkbenchDb(`vectors-test-${++n}`);
    let store = new IdbVectorStore(db);
    const source = { location: 'app' as const, modelId: 'tiny-bert' };
    // The tab "closes" after 7 documents: the chunk [d04..d07] in progress is lost, [d00..d03] is stored.
    const dying = new IdbVectorStore(db);
    let calls = 0;
    const crashing = Object.create(embedder) as Embedder;
    crashing.embedTexts = async (texts, kind) => {
      if (++calls === 4) throw new Error('tab closed');
      return embedder.embedTexts(texts, kind);
    };
    await expect(embedCorpus(crashing, corpora, dying, { corpusId: 'c1', source, chunkRows: 4 })).rejects.toThrow('tab closed');
    let set = (await store.listSets('c1'))[0]!;
    expect([set.rowsDone, set.lastId, set.complete]).toEqual([4, 'd03', false]);

    // A fresh page: a new store over the same database resumes at row 4.
    store = new IdbVectorStore(await openWorkbenchDb(db.name));
    let resumedAt = -1;
    const done: number[] = [];
    set = await embedCorpus(embedder, corpora, store, {
      corpusId: 'c1',
      source,
      chunkRows: 4,
      onStart: (_, at) => (resumedAt = at),
      onProgress: (p) => done.push(p.done),
    });
    expect(resumedAt).toBe(4);
    expect(done).toEqual([6, 8, 10, 11]);
    expect([set.rowsDone, set.totalRows, set.complete, set.bytes]).toEqual([11, 11, true, 11 * 32 * 4]);
    const matrix = await loadVectorMatrix(store, set);
    expect(matrix.ids).toEqual(docs.map((d) => d.id));
    const direct = await embedder.embedTexts(docs.map((d) => d.text), 'passage');
    for (let i = 0; i < docs.length; i++) {
      const stored = matrix.rows.row(i);
      for (let j = 0; j < 32; j++) expect(Math.abs(stored[j]! - direct[i * 32 + j]!)).toBeLessThan(1e-6);
    }
    // Full chunks are adopted as they were read (no copy); only the partial last one gets full capacity.
    expect(matrix.rows.chunkCount).toBe(3);
    expect(matrix.rows.byteLength).toBe(3 * 4 * 32 * 4);
  });
});

describe('IdbVectorStore and the compact vector form', () => {
  it('loads a stored set as int8 chunk by chunk; rescoring reads float32 rows back, so hits equal the exact search', async () => {
    const { loadCompactVectors, searchCompact, searchDense } = await import('../core/index.ts');
    const store = await freshStore();
    await store.createSet(setRecord('c1', 'k1', { totalRows: 3, chunkRows: 2 }));
    const rows = [Float32Array.of(1, 0), Float32Array.of(0.6, 0.8), Float32Array.of(0, 1)];
    await store.writeChunk('c1', 'k1', { index: 0, ids: ['a', 'b'], vectors: Float32Array.of(...rows[0]!, ...rows[1]!) }, [], {
      rowsDone: 2,
      lastId: 'b',
      complete: false,
      bytesAdded: 16,
    });
    await store.writeChunk('c1', 'k1', { index: 1, ids: ['c'], vectors: rows[2]! }, [], { rowsDone: 3, lastId: 'c', complete: true, bytesAdded: 8 });
    const set = (await store.getSet('c1', 'k1'))!;
    const compact = await loadCompactVectors(store, set);
    const matrix = await loadVectorMatrix(store, set);
    expect(compact.ids).toEqual(['a', 'b', 'c']);
    expect(Array.from(await compact.floatRows([1, 2]), (r) => Array.from(r))).toEqual([Array.from(rows[1]!), Array.from(rows[2]!)]);
    const query = { vector: Float32Array.of(0.3, 1), model: set.model };
    expect(await searchCompact(compact, query, 2)).toEqual(searchDense(matrix, query, 2));
  });
});
