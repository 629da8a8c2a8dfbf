import { describe, expect, it } from 'vitest';
import { searchDense } from './dense-search.ts';
import { searchDenseSharded, splitRows } from './sharded-search.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { testModel } from './test-fixtures.ts';
import { VectorMatrix } from './vector-matrix.ts';

describe('splitRows', () => {
  it('splits rows into contiguous, nearly equal ranges covering all rows', () => {
    expect(splitRows(10, 3)).toEqual([
      [0, 4],
      [4, 7],
      [7, 10],
    ]);
    expect(splitRows(1, 2)).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(() => splitRows(5, 0)).toThrow('parts must be a positive integer');
  });
});

describe('searchDenseSharded', () => {
  it('returns exactly what one full scan returns, for any number of shards', async () => {
    const model = testModel(8);
    const matrix = new VectorMatrix({ model, chunkRows: 16 });
    const random = seededRandom(7);
    matrix.addBatch(
      Array.from({ length: 101 }, (_, i) => `d${i}`),
      randomRows(random, 101, 8),
    );
    // Duplicate rows force ties that must resolve by row, as in a full scan.
    matrix.add('dup', matrix.rows.row(3));
    const query = { vector: randomRows(random, 1, 8), model };
    const full = searchDense(matrix, query, 10);
    for (const parts of [1, 2, 3, 7]) {
      const ranges: Array<[number, number]> = [];
      const shards = Array.from({ length: parts }, () => async (q: typeof query, k: number, start: number, end: number) => {
        ranges.push([start, end]);
        return searchDense(matrix, q, k, { start, end });
      });
      expect(await searchDenseSharded(matrix.size, query, 10, shards)).toEqual(full);
      expect(ranges.length).toBe(parts);
    }
  });
});
