import { describe, expect, it } from 'vitest';
import { normalizeScores, type NormalizeMethod } from './normalize.ts';

const close = (actual: number[], expected: number[]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 12));
};

describe('normalizeScores', () => {
  const s = [3, 1, 2, null];
  // For [3, 1, 2]: mean 2, population sigma sqrt(2/3).
  const sigma = Math.sqrt(2 / 3);

  it('mm: (s-min)/(max-min), missing -> 0', () => close(normalizeScores(s, 'mm'), [1, 0, 0.5, 0]));
  it('mm: constant scores -> 0.5', () => close(normalizeScores([4, null, 4], 'mm'), [0.5, 0, 0.5]));

  it('tmm: (s-theta)/(max-theta), missing -> 0', () => close(normalizeScores(s, 'tmm', 0), [1, 1 / 3, 2 / 3, 0]));
  it('tmm: max == theta -> 0.5', () => close(normalizeScores([2, null], 'tmm', 2), [0.5, 0]));
  it('tmm: missing theoretical min names the pipeline', () => {
    expect(() => normalizeScores([1], 'tmm', undefined, 'pipeline_1_min')).toThrow('TMM normalization requires pipeline_1_min');
    expect(() => normalizeScores([1], 'tmm', null, 'pipeline_2_min')).toThrow('TMM normalization requires pipeline_2_min');
  });

  it('z: population sigma, missing -> -3', () => close(normalizeScores(s, 'z'), [1 / sigma, -1 / sigma, 0, -3]));
  it('z: sigma 0 -> 0', () => close(normalizeScores([7, null], 'z'), [0, -3]));

  it('dbsf: (s - (mu-3sigma)) / 6sigma, missing -> 0', () =>
    close(normalizeScores(s, 'dbsf'), [(1 + 3 * sigma) / (6 * sigma), (3 * sigma - 1) / (6 * sigma), 0.5, 0]));
  it('dbsf: sigma 0 -> 0.5', () => close(normalizeScores([7, 7, null], 'dbsf'), [0.5, 0.5, 0]));
  it('dbsf: clips beyond 3 sigma', () => {
    // [10, 0 x 10]: z(10) = sqrt(10) > 3 -> 1; z(0) = -1/sqrt(10) -> (3 - 1/sqrt(10)) / 6.
    const out = normalizeScores([10, ...Array<number>(10).fill(0)], 'dbsf');
    expect(out[0]).toBe(1);
    out.slice(1).forEach((v) => expect(v).toBeCloseTo((3 - 1 / Math.sqrt(10)) / 6, 12));
  });

  it('an all-missing list gets the floors', () => {
    const floors: Record<NormalizeMethod, number> = { mm: 0, tmm: 0, z: -3, dbsf: 0 };
    for (const method of Object.keys(floors) as NormalizeMethod[]) {
      expect(normalizeScores([null, null], method, 0)).toEqual([floors[method], floors[method]]);
    }
  });

  it('rejects an unknown method', () => {
    expect(() => normalizeScores([1], 'minmax' as NormalizeMethod)).toThrow('Unknown normalization method: minmax');
  });
});
