import { describe, expect, it } from 'vitest';
import { holmAdjust, holmSignificant } from './holm.ts';

// Reference values computed in Python with the step-down rule of statsmodels' multipletests(method='holm'):
// sort ascending, multiply the i-th smallest (0-based) by m − i, carry the running maximum, cap at 1.
const CASES: { p: number[]; holm: number[] }[] = [
  { p: [0.01, 0.04, 0.03, 0.005], holm: [0.03, 0.06, 0.06, 0.02] },
  { p: [0.2, 0.0001, 0.6, 0.03, 0.03], holm: [0.4, 0.0005, 0.6, 0.12, 0.12] },
  { p: [0.5, 0.7], holm: [1, 1] },
  { p: [0.04], holm: [0.04] },
];

describe('holmAdjust', () => {
  it.each(CASES)('matches the worked example $p', ({ p, holm }) => {
    const adjusted = holmAdjust(p);
    expect(adjusted).toHaveLength(holm.length);
    adjusted.forEach((value, i) => expect(value).toBeCloseTo(holm[i]!, 15));
  });

  it('never lowers a p-value, keeps the order of the raw ones and stays at most 1', () => {
    const p = [0.31, 0.002, 0.049, 0.9, 0.011, 0.011];
    const adjusted = holmAdjust(p);
    adjusted.forEach((a, i) => {
      expect(a).toBeGreaterThanOrEqual(p[i]!);
      expect(a).toBeLessThanOrEqual(1);
      p.forEach((q, j) => {
        if (p[i]! < q) expect(a).toBeLessThanOrEqual(adjusted[j]!);
      });
    });
    expect(adjusted[4]).toBe(adjusted[5]);
  });

  it('says which are significant at the family-wise level', () => {
    expect(holmSignificant(holmAdjust([0.01, 0.04, 0.03, 0.005]))).toEqual([true, false, false, true]);
    expect(holmSignificant([0.05, 0.0501], 0.05)).toEqual([true, false]);
  });

  it('refuses what is not a p-value and accepts an empty family', () => {
    expect(holmAdjust([])).toEqual([]);
    expect(() => holmAdjust([0.1, Number.NaN])).toThrow('a p-value must be a number from 0 to 1 (got NaN)');
    expect(() => holmAdjust([1.5])).toThrow('(got 1.5)');
  });
});
