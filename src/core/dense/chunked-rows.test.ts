import { describe, expect, it } from 'vitest';
import { ChunkedRows } from './chunked-rows.ts';

describe('ChunkedRows', () => {
  it('normalises rows on the way in and keeps a zero row zero', () => {
    const rows = new ChunkedRows(2, 4);
    expect(rows.append([3, 4])).toBe(0);
    expect(rows.append([0, 0])).toBe(1);
    expect(Array.from(rows.row(0))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(rows.row(1))).toEqual([0, 0]);
  });

  it('fills fixed-size chunks and exposes the filled part of each', () => {
    const rows = new ChunkedRows(2, 3);
    const values = Float32Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? i + 1 : 0)); // 7 rows, (x, 0)
    expect(rows.append(values, 7)).toBe(0);
    expect(rows.size).toBe(7);
    expect(rows.chunkCount).toBe(3);
    expect(rows.rowsInChunk(2)).toBe(1);
    expect(rows.chunk(0)).toHaveLength(6);
    expect(rows.chunk(2)).toHaveLength(2);
    expect(rows.rawChunk(2)).toHaveLength(6);
    expect(rows.byteLength).toBe(3 * 3 * 2 * 4);
    // Each row was (positive, 0), so normalised to (1, 0); row 6 lives alone in chunk 2.
    for (let r = 0; r < 7; r++) expect(Array.from(rows.row(r))).toEqual([1, 0]);
    expect(() => rows.row(7)).toThrow(/out of range/);
    expect(() => rows.chunk(3)).toThrow(/out of range/);
  });

  it('appends from an offset and checks the value count', () => {
    const rows = new ChunkedRows(2, 2);
    rows.append([9, 9, 0, 2, 5, 0], 2, 2);
    expect(Array.from(rows.row(0))).toEqual([0, 1]);
    expect(Array.from(rows.row(1))).toEqual([1, 0]);
    expect(() => rows.append([1, 2, 3], 2)).toThrow(/expected 2 rows of 2 values/);
  });

  it('round-trips through persisted chunks and keeps appending', () => {
    const rows = new ChunkedRows(2, 2);
    rows.append([1, 0, 0, 1, 1, 1], 3);
    const restored = ChunkedRows.fromChunks(2, 2, [rows.chunk(0).slice(), rows.chunk(1).slice()]);
    expect(restored.size).toBe(3);
    expect(Array.from(restored.row(2))).toEqual(Array.from(rows.row(2)));
    restored.append([0, 3]);
    expect(restored.size).toBe(4);
    expect(restored.chunkCount).toBe(2);
    expect(Array.from(restored.row(3))).toEqual([0, 1]);
  });

  it('rejects malformed persisted chunks and bad shapes', () => {
    expect(() => ChunkedRows.fromChunks(2, 2, [new Float32Array(2), new Float32Array(2)])).toThrow(/chunk 0/);
    expect(() => ChunkedRows.fromChunks(2, 2, [new Float32Array(3)])).toThrow(/chunk 0/);
    expect(() => new ChunkedRows(0)).toThrow(/dimensions/);
    expect(() => new ChunkedRows(4, 0)).toThrow(/chunkRows/);
  });
});
