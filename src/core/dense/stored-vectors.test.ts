import { describe, expect, it } from 'vitest';
import { searchCompact } from './compact-search.ts';
import { searchDense } from './dense-search.ts';
import { loadCompactVectors, loadVectorMatrix, storedFloatRows } from './stored-vectors.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { storedSet } from '../../test-support/stored-vector-set.ts';
import { testModel } from './test-fixtures.ts';

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
