import { describe, expect, it } from 'vitest';
import { effectiveTemperature, klDivergence, mixtureInto, softmax, softmaxInto } from './distributions.ts';

describe('softmax', () => {
  it('normalises exp(x/τ)', () => {
    const p = softmax([1, 0], 1);
    const e = Math.E;
    expect(p[0]).toBeCloseTo(e / (e + 1), 15);
    expect(p[1]).toBeCloseTo(1 / (e + 1), 15);
  });

  it('divides by the temperature', () => {
    const p = softmax([1, 0], 0.5); // = softmax([2, 0])
    expect(p[0]).toBeCloseTo(Math.exp(2) / (Math.exp(2) + 1), 15);
  });

  it('is shift-safe for large scores', () => {
    const p = softmax([1000, 999], 1);
    expect(p[0]).toBeCloseTo(Math.E / (Math.E + 1), 15);
  });

  it('returns an empty vector for an empty input', () => {
    expect(softmax([], 1).length).toBe(0);
  });

  it('falls back to uniform as the reference does', () => {
    expect(Array.from(softmax([Number.NaN, 1, 2], 1))).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(Array.from(softmax([1, Number.POSITIVE_INFINITY], 1))).toEqual([0.5, 0.5]);
    expect(Array.from(softmax([-Infinity, -Infinity], 1))).toEqual([0.5, 0.5]);
    expect(Array.from(softmax([-Infinity, 0], 1))).toEqual([0, 1]);
  });

  it('clamps tiny temperatures to 1e-8', () => {
    expect(effectiveTemperature(1e-12)).toBe(1e-8);
    expect(Array.from(softmax([1, 0.999], 1e-12))).toEqual([1, 0]);
  });

  it('can write in place', () => {
    const x = Float64Array.from([0, 0]);
    softmaxInto(x, 1, x);
    expect(Array.from(x)).toEqual([0.5, 0.5]);
  });
});

describe('mixtureInto', () => {
  it('is (1 − α)·p + α·q', () => {
    const out = mixtureInto([0.75, 0.25], [0.25, 0.75], 0.25, new Float64Array(2));
    expect(Array.from(out)).toEqual([0.625, 0.375]); // 0.75·0.75 + 0.25·0.25, 0.75·0.25 + 0.25·0.75
  });
});

describe('klDivergence', () => {
  it('is Σ t·ln(t/p) with 0·ln 0 = 0', () => {
    expect(klDivergence([0.5, 0.5], [0.25, 0.75])).toBeCloseTo(0.5 * Math.log(2) + 0.5 * Math.log(2 / 3), 15);
    expect(klDivergence([1, 0], [0.5, 0.5])).toBeCloseTo(Math.log(2), 15);
    expect(klDivergence([0.3, 0.7], [0.3, 0.7])).toBe(0);
  });
});
