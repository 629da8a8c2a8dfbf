import { describe, expect, it } from 'vitest';
import { maxSimScore, searchMaxSim } from './maxsim.ts';
import { MultiVectorStore } from './multi-vector-store.ts';
import { testModel } from './test-fixtures.ts';

const tokenModel = testModel(2, { pooling: 'token' });
const tokens = (...rows: number[][]) => ({ vectors: Float32Array.from(rows.flat()), count: rows.length });

// Query tokens (1,0) and (0,1).
const query = tokens([1, 0], [0, 1]);
const d1 = tokens([0.6, 0.8], [1, 0]); // maxes 1 and 0.8 → (1 + 0.8) / 2
const d2 = tokens([0, 1]); // maxes 0 and 1 → 0.5
const d3 = tokens(); // empty → 0
const d4 = tokens([-1, 0]); // maxes −1 and 0 → −0.5

describe('maxSimScore', () => {
  it('sums the best dot product per query vector, divided by the number of query vectors', () => {
    expect(maxSimScore(query, d1, 2)).toBeCloseTo(0.9, 6);
    expect(maxSimScore(query, d2, 2)).toBeCloseTo(0.5, 12);
    expect(maxSimScore(query, d3, 2)).toBe(0);
    expect(maxSimScore(query, d4, 2)).toBeCloseTo(-0.5, 12);
    expect(maxSimScore(tokens(), d1, 2)).toBe(0);
  });

  it('uses raw dot products (no normalisation of the query)', () => {
    expect(maxSimScore(tokens([2, 0]), d1, 2)).toBeCloseTo(2, 6);
  });
});

describe('searchMaxSim', () => {
  const store = new MultiVectorStore({ model: tokenModel, chunkRows: 2 });
  store.add('d1', d1);
  store.add('d2', d2);
  store.add('d3', d3);
  store.add('d4', d4);

  it('ranks every document exactly', () => {
    const hits = searchMaxSim(store, { ...query, model: tokenModel }, 10);
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(hits.map((h) => h.score)).toEqual([expect.closeTo(0.9, 6), 0.5, 0, -0.5]);
    expect(searchMaxSim(store, { ...query, model: tokenModel }, 1).map((h) => h.id)).toEqual(['d1']);
  });

  it('refuses a query from another model', () => {
    const other = testModel(2, { pooling: 'token', modelId: 'other-colbert' });
    expect(() => searchMaxSim(store, { ...query, model: other }, 1)).toThrow(/test-model.*other-colbert/);
  });
});
