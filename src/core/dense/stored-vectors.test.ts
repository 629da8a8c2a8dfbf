import { describe, expect, it } from 'vitest';
import { searchCompact } from './compact-search.ts';
import { searchDense } from './dense-search.ts';
import { loadCompactVectors, loadVectorMatrix, storedFloatRows } from './stored-vectors.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { storedSet } from '../../test-support/stored-vector-set.ts';
import { testModel } from './test-fixtures.ts';
import type { MemoryVectorStore } from '../storage/index.ts';

const model = testModel(24);

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

  it('opens each stored chunk once for the rows asked and keeps light readers for later rows', async () => {
    const { store, set } = await storedSet(40);
    const matrix = await loadVectorMatrix(store, set);
    let opened = 0;
    const counting = Object.create(store, {
      chunkRowReader: { value: (...args: Parameters<MemoryVectorStore['chunkRowReader']>) => (opened++, store.chunkRowReader(...args)) },
    }) as MemoryVectorStore;
    const read = storedFloatRows(counting, set);
    const asked = [0, 3, 15, 16, 39, 3];
    const rows = await read(asked);
    expect(opened).toBe(3);
    expect(rows.map((r) => Array.from(r))).toEqual(asked.map((r) => Array.from(matrix.rows.row(r))));
    expect((await read([1, 17])).map((r) => Array.from(r))).toEqual([1, 17].map((r) => Array.from(matrix.rows.row(r))));
    expect(opened).toBe(3);
  });

  it('keeps the readers the load opened: rescoring after a load opens no chunk again', async () => {
    const { store, set } = await storedSet(40);
    let opened = 0;
    const counting = Object.create(store, {
      chunkRowReader: { value: (...args: Parameters<MemoryVectorStore['chunkRowReader']>) => (opened++, store.chunkRowReader(...args)) },
    }) as MemoryVectorStore;
    const compact = await loadCompactVectors(counting, set);
    expect(opened).toBe(3);
    const matrix = await loadVectorMatrix(store, set);
    expect((await compact.floatRows([39, 0, 20])).map((r) => Array.from(r))).toEqual([39, 0, 20].map((r) => Array.from(matrix.rows.row(r))));
    expect(opened).toBe(3);
  });

  it('reads whole chunks through getChunk where the store has no row readers, every time', async () => {
    const { store, set } = await storedSet(40);
    const matrix = await loadVectorMatrix(store, set);
    let reads = 0;
    const plain = Object.create(store, {
      chunkRowReader: { value: undefined },
      getChunk: { value: (...args: Parameters<typeof store.getChunk>) => (reads++, store.getChunk(...args)) },
    }) as MemoryVectorStore;
    const read = storedFloatRows(plain, set);
    const rows = await read([0, 3, 15, 16, 39]);
    expect(reads).toBe(3);
    expect(rows.map((r) => Array.from(r))).toEqual([0, 3, 15, 16, 39].map((r) => Array.from(matrix.rows.row(r))));
    await read([1]);
    expect(reads).toBe(4);
    await expect(storedFloatRows(plain, { ...set, rowsDone: 60 })([50])).rejects.toThrow(/Chunk 3 of the vectors of test-model is missing/);
  });

  it('refuses an incomplete set, names a missing chunk and a short chunk before the end', async () => {
    const { store, set } = await storedSet(48);
    await expect(loadCompactVectors(store, { ...set, complete: false })).rejects.toThrow(/Only .* of .* documents are embedded/);
    await expect(loadCompactVectors(store, { ...set, rowsDone: 60, totalRows: 60 })).rejects.toThrow(/Chunk 3 of the vectors of test-model is missing/);
    const short = await storedSet(40);
    await expect(loadCompactVectors(short.store, { ...short.set, rowsDone: 60, totalRows: 60 })).rejects.toThrow(/chunk 2 has 8 rows/);
  });
});
