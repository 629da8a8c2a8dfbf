import { describe, expect, it } from 'vitest';
import { MemoryVectorStore } from '../storage/memory-vector-store.ts';
import type { EmbeddingSetRecord } from '../storage/vector-store.ts';
import { searchCompact } from './compact-search.ts';
import { searchDense } from './dense-search.ts';
import { loadCompactVectors, loadVectorMatrix, storedFloatRows } from './stored-vectors.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { testModel } from './test-fixtures.ts';

const model = testModel(24);

// A complete set of `rows` random vectors in chunks of 16 rows.
async function storedSet(rows: number) {
  const store = new MemoryVectorStore();
  const set: EmbeddingSetRecord = {
    corpusId: 'c',
    modelKey: 'm',
    model,
    source: { location: 'path', modelId: 'test-model' },
    maxTokens: 128,
    chunkRows: 16,
    tokens: false,
    totalRows: rows,
    rowsDone: 0,
    lastId: null,
    complete: false,
    device: 'cpu',
    bytes: 0,
    createdAt: 1,
    updatedAt: 1,
  };
  await store.createSet(set);
  const values = randomRows(seededRandom(5), rows, 24);
  for (let i = 0, c = 0; i < rows; i += 16, c++) {
    const n = Math.min(16, rows - i);
    const vectors = values.slice(i * 24, (i + n) * 24);
    for (let r = 0; r < n; r++) {
      let s = 0;
      for (let j = 0; j < 24; j++) s += vectors[r * 24 + j]! ** 2;
      for (let j = 0; j < 24; j++) vectors[r * 24 + j]! /= Math.sqrt(s);
    }
    const ids = Array.from({ length: n }, (_, r) => `d${i + r}`);
    await store.writeChunk('c', 'm', { index: c, ids, vectors }, [], { rowsDone: i + n, lastId: ids[n - 1]!, complete: i + n === rows, bytesAdded: vectors.byteLength });
  }
  return { store, set: (await store.getSet('c', 'm'))! };
}

describe('loadCompactVectors', () => {
  it('quantises a stored set chunk by chunk; rescoring reads the stored float32 rows, so hits equal the exact search', async () => {
    const { store, set } = await storedSet(100);
    const compact = await loadCompactVectors(store, set);
    const matrix = await loadVectorMatrix(store, set);
    expect(compact.size).toBe(100);
    expect(compact.ids).toEqual(matrix.ids);
    for (let q = 0; q < 10; q++) {
      const query = { vector: randomRows(seededRandom(50 + q), 1, 24), model };
      expect(await searchCompact(compact, query, 5, { rescoreFactor: 20 })).toEqual(searchDense(matrix, query, 5));
    }
  });

  it('reads each stored chunk once for the rows asked', async () => {
    const { store, set } = await storedSet(40);
    let reads = 0;
    const counting = Object.create(store, { getChunk: { value: (...args: Parameters<typeof store.getChunk>) => (reads++, store.getChunk(...args)) } });
    const rows = await storedFloatRows(counting, set)([0, 3, 15, 16, 39]);
    expect(reads).toBe(3);
    const matrix = await loadVectorMatrix(store, set);
    expect(rows.map((r) => Array.from(r))).toEqual([0, 3, 15, 16, 39].map((r) => Array.from(matrix.rows.row(r))));
  });

  it('refuses an incomplete set, names a missing chunk and a short chunk before the end', async () => {
    const { store, set } = await storedSet(48);
    await expect(loadCompactVectors(store, { ...set, complete: false })).rejects.toThrow(/Only .* of .* documents are embedded/);
    await expect(loadCompactVectors(store, { ...set, rowsDone: 60, totalRows: 60 })).rejects.toThrow(/Chunk 3 of the vectors of test-model is missing/);
    const short = await storedSet(40);
    await expect(loadCompactVectors(short.store, { ...short.set, rowsDone: 60, totalRows: 60 })).rejects.toThrow(/chunk 2 has 8 rows/);
  });
});
