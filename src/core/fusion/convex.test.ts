import { describe, expect, it } from 'vitest';
import { fuseConvex } from './convex.ts';
import type { ScoredDoc } from '../ranking/index.ts';

// Candidates in union order: a, b, c (list 1), then d (new in list 2).
const list1: ScoredDoc[] = [{ id: 'a', score: 3 }, { id: 'b', score: 1 }, { id: 'c', score: 2 }];
const list2: ScoredDoc[] = [{ id: 'b', score: 10 }, { id: 'd', score: 20 }];

const expectFused = (actual: ScoredDoc[], expected: [string, number][]) => {
  expect(actual.map((d) => d.id)).toEqual(expected.map(([id]) => id));
  actual.forEach((d, i) => expect(d.score).toBeCloseTo(expected[i][1], 12));
};

describe('fuseConvex', () => {
  it('mm, weight 0.5 (default); ties keep union order (a before d)', () => {
    // n1: a 1, b 0, c 0.5, d 0 (floor); n2: a 0, b 0, c 0, d 1.
    expectFused(fuseConvex(list1, list2), [['a', 0.5], ['d', 0.5], ['c', 0.25], ['b', 0]]);
  });

  it('weight applies to list 1', () => {
    expectFused(fuseConvex(list1, list2, { weight: 0.7 }), [['a', 0.7], ['c', 0.35], ['d', 0.3], ['b', 0]]);
  });

  it('tmm with theoretical minimums 0', () => {
    // n1: a 1, b 1/3, c 2/3, d 0; n2: b 0.5, d 1, a 0, c 0.
    const fused = fuseConvex(list1, list2, { normalizeMethod: 'tmm', pipeline1Min: 0, pipeline2Min: 0 });
    expectFused(fused, [['a', 0.5], ['d', 0.5], ['b', (1 / 3 + 0.5) / 2], ['c', 1 / 3]]);
  });

  it('tmm without a theoretical minimum fails, naming the pipeline', () => {
    expect(() => fuseConvex(list1, list2, { normalizeMethod: 'tmm' })).toThrow('TMM normalization requires pipeline_1_min');
    expect(() => fuseConvex(list1, list2, { normalizeMethod: 'tmm', pipeline1Min: 0 })).toThrow(
      'TMM normalization requires pipeline_2_min',
    );
  });

  it('z, with the -3 floor for missing docs', () => {
    // list 1: mean 2, sigma sqrt(2/3); list 2: mean 15, sigma 5.
    const z = 1 / Math.sqrt(2 / 3);
    const fused = fuseConvex(list1, list2, { normalizeMethod: 'z' });
    expectFused(fused, [['a', (z - 3) / 2], ['d', (-3 + 1) / 2], ['b', (-z - 1) / 2], ['c', (0 - 3) / 2]]);
  });

  it('dbsf', () => {
    const sigma = Math.sqrt(2 / 3);
    const n1 = { a: (1 + 3 * sigma) / (6 * sigma), b: (3 * sigma - 1) / (6 * sigma), c: 0.5, d: 0 };
    // list 2: lower bound 15 - 15 = 0, width 30.
    const n2 = { a: 0, b: 10 / 30, c: 0, d: 20 / 30 };
    const fused = fuseConvex(list1, list2, { normalizeMethod: 'dbsf' });
    expectFused(fused, [
      ['a', (n1.a + n2.a) / 2],
      ['d', (n1.d + n2.d) / 2],
      ['b', (n1.b + n2.b) / 2],
      ['c', (n1.c + n2.c) / 2],
    ]);
  });

  it('a duplicate id within a list keeps its last score', () => {
    const dup: ScoredDoc[] = [{ id: 'a', score: 1 }, { id: 'b', score: 5 }, { id: 'a', score: 9 }];
    // list 1 normalised over {a: 9, b: 5}: a 1, b 0.
    expectFused(fuseConvex(dup, [], { weight: 1 }), [['a', 1], ['b', 0]]);
  });

  it('unknown method and topK', () => {
    expect(() => fuseConvex(list1, list2, { normalizeMethod: 'l2' as 'mm' })).toThrow('Unknown normalization method: l2');
    expect(fuseConvex(list1, list2, { topK: 1 }).map((d) => d.id)).toEqual(['a']);
    expect(fuseConvex([], [])).toEqual([]);
  });
});
