import { describe, expect, it } from 'vitest';
import { MultiVectorStore } from './multi-vector-store.ts';
import { testModel } from './test-fixtures.ts';

const model = testModel(2, { pooling: 'token' });

describe('MultiVectorStore', () => {
  it('keeps each document as a run of normalised rows, across chunk boundaries', () => {
    const store = new MultiVectorStore({ model, chunkRows: 2 });
    expect(store.add('a', { vectors: Float32Array.from([3, 4, 0, 5, 2, 0]), count: 3 })).toBe(0);
    expect(store.add('empty', { vectors: new Float32Array(0), count: 0 })).toBe(1);
    expect(store.add('b', { vectors: Float32Array.from([0, -2]), count: 1 })).toBe(2);
    expect(store.size).toBe(3);
    expect(store.ids).toEqual(['a', 'empty', 'b']);
    expect(store.rows.size).toBe(4);
    expect([store.start(0), store.count(0), store.start(2), store.count(2), store.count(1)]).toEqual([0, 3, 3, 1, 0]);
    const a = store.vectorsOf('a')!;
    expect(a.count).toBe(3);
    expect(Array.from(a.vectors)).toEqual([0.6, 0.8, 0, 1, 1, 0].map(Math.fround));
    expect(store.vectorsOf('empty')).toEqual({ vectors: new Float32Array(0), count: 0 });
    expect(Array.from(store.vectorsOf('b')!.vectors)).toEqual([0, -1]);
    expect(store.indexOf('b')).toBe(2);
    expect(store.vectorsOf('zz')).toBeUndefined();
  });

  it('grows past its initial document capacity', () => {
    const store = new MultiVectorStore({ model });
    for (let i = 0; i < 200; i++) store.add(`d${i}`, { vectors: Float32Array.from([1, i]), count: 1 });
    expect(store.start(199)).toBe(199);
    expect(store.vectorsOf('d199')!.vectors[1]).toBeCloseTo(199 / Math.hypot(1, 199), 6);
  });

  it('rejects pooled models, duplicate ids and malformed input', () => {
    expect(() => new MultiVectorStore({ model: testModel(2) })).toThrow(/token-level/);
    const store = new MultiVectorStore({ model });
    store.add('a', { vectors: Float32Array.from([1, 0]), count: 1 });
    expect(() => store.add('a', { vectors: Float32Array.from([1, 0]), count: 1 })).toThrow(/already/);
    expect(() => store.add('c', { vectors: Float32Array.from([1, 0, 1]), count: 1 })).toThrow(/expected 1 × 2/);
    expect(() => store.count(5)).toThrow(/out of range/);
  });
});
