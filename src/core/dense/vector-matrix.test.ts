import { describe, expect, it } from 'vitest';
import { VectorMatrix } from './vector-matrix.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { testModel } from './test-fixtures.ts';

describe('VectorMatrix', () => {
  it('stores normalised vectors with their ids, in row order', () => {
    const m = new VectorMatrix({ model: testModel(2), chunkRows: 2 });
    expect(m.add('a', [0, 2])).toBe(0);
    m.addBatch(['b', 'c'], [3, 4, -1, 0]);
    expect(m.size).toBe(3);
    expect(m.ids).toEqual(['a', 'b', 'c']);
    expect(m.rowOf('c')).toBe(2);
    expect(m.id(1)).toBe('b');
    expect(Array.from(m.vectorOf('b')!)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(m.vectorOf('zz')).toBeUndefined();
    expect(m.rows.chunkCount).toBe(2);
  });

  it('refuses duplicate ids and wrong widths without storing anything', () => {
    const m = new VectorMatrix({ model: testModel(2) });
    m.add('a', [1, 0]);
    expect(() => m.add('a', [0, 1])).toThrow('document "a" is already in the matrix');
    expect(() => m.add('b', [1, 0, 0])).toThrow(/3 dimensions; the matrix holds 2/);
    expect(() => m.addBatch(['x', 'x'], [1, 0, 0, 1])).toThrow(/duplicate/);
    expect(() => m.addBatch(['x', 'a'], [1, 0, 0, 1])).toThrow(/"a" is already/);
    expect(() => m.addBatch(['x'], [1, 0, 0, 1])).toThrow(/expected 1 × 2 values/);
    expect(m.size).toBe(1);
    expect(m.rowOf('x')).toBeUndefined();
  });

  it('memory is the chunk capacity, near the raw float32 size', () => {
    const dims = 384;
    const n = 10_000;
    const m = new VectorMatrix({ model: testModel(dims) });
    const random = seededRandom(1);
    for (let b = 0; b < n; b += 1000) m.addBatch(Array.from({ length: 1000 }, (_, i) => `d${b + i}`), randomRows(random, 1000, dims));
    expect(m.rows.chunkCount).toBe(3); // 4,096 rows per chunk
    expect(m.rows.byteLength).toBe(3 * 4096 * dims * 4);
    expect(m.rows.byteLength / (n * dims * 4)).toBeLessThan(1.25);
  });

  it('restores from persisted ids and chunks', () => {
    const m = new VectorMatrix({ model: testModel(3), chunkRows: 2 });
    m.addBatch(['a', 'b', 'c'], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const chunks = [0, 1].map((i) => m.rows.chunk(i).slice());
    const restored = VectorMatrix.fromChunks({ model: m.model, chunkRows: 2 }, [...m.ids], chunks);
    expect(restored.size).toBe(3);
    expect(Array.from(restored.vectorOf('c')!)).toEqual(Array.from(m.vectorOf('c')!));
    restored.add('d', [0, 0, 1]);
    expect(restored.rowOf('d')).toBe(3);
    expect(() => VectorMatrix.fromChunks({ model: m.model, chunkRows: 2 }, ['a'], chunks)).toThrow(/1 ids for 3 stored rows/);
  });
});
