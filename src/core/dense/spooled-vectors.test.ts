import { describe, expect, it } from 'vitest';
import type { VectorSpool } from '../storage/index.ts';
import { seededRandom, unitRows } from '../../test-support/random-vectors.ts';
import { loadSpooledCompactVectors } from './spooled-vectors.ts';
import { testModel } from './test-fixtures.ts';

// A spool in memory that records the ranges read.
function memorySpool(values: Float32Array, dimensions: number): VectorSpool & { ranges: Array<[number, number]> } {
  const row = (r: number) => values.slice(r * dimensions, (r + 1) * dimensions);
  return {
    dimensions,
    count: values.length / dimensions,
    ranges: [],
    append: () => Promise.reject(new Error('read-only')),
    read: async (rows) => rows.map(row),
    async readRange(first, count) {
      this.ranges.push([first, count]);
      return values.slice(first * dimensions, (first + count) * dimensions);
    },
    close: async () => {},
  };
}

describe('loadSpooledCompactVectors', () => {
  it('quantises every row in sequential passes and rescores from the spool', async () => {
    const dims = 16;
    const rows = 10_000;
    const values = unitRows(seededRandom(2), rows, dims);
    const spool = memorySpool(values, dims);
    const ids = Array.from({ length: rows }, (_, i) => `d${i}`);
    const compact = await loadSpooledCompactVectors(spool, testModel(dims), ids);
    expect(spool.ranges).toEqual([
      [0, 8192],
      [8192, 1808],
    ]);
    for (const r of [0, 8191, 8192, 9999]) {
      const step = Math.max(...values.subarray(r * dims, (r + 1) * dims).map(Math.abs)) / 127;
      compact.dequantized(r).forEach((v, j) => expect(Math.abs(v - values[r * dims + j]!)).toBeLessThanOrEqual(step / 2 + 1e-7));
    }
    const [back] = await compact.floatRows([4321]);
    expect(Array.from(back!)).toEqual(Array.from(values.subarray(4321 * dims, 4322 * dims)));
  });

  it('refuses a spool that does not match the model or the ids, and stops when aborted', async () => {
    const spool = memorySpool(new Float32Array(40), 4);
    const ids = Array.from({ length: 10 }, (_, i) => `d${i}`);
    await expect(loadSpooledCompactVectors(spool, testModel(8), ids)).rejects.toThrow('The vector spool holds rows of 4 values; test-model makes 8.');
    await expect(loadSpooledCompactVectors(spool, testModel(4), ids.slice(1))).rejects.toThrow('The vector spool holds 10 rows for 9 document ids.');
    await expect(loadSpooledCompactVectors(spool, testModel(4), ids, { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
