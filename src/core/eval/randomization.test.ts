import { describe, expect, it } from 'vitest';
import { pairedRandomizationTest } from './randomization.ts';

/**
 * Exact two-sided sign-flip p-value by enumerating all 2^n sign vectors, on integer-valued differences
 * (so the arithmetic is exact): share of vectors with |Σ s_i d_i| ≥ |Σ d_i|.
 */
function exactP(units: number[]): number {
  const n = units.length;
  const observed = Math.abs(units.reduce((a, b) => a + b, 0));
  let extreme = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (mask >> i) & 1 ? units[i] : -units[i];
    if (Math.abs(sum) >= observed) extreme++;
  }
  return extreme / 2 ** n;
}

/** Monte-Carlo p = (b+1)/(m+1) has mean (m·p + 1)/(m+1) and sd ≈ sqrt(p(1−p)/m). */
function expectNear(mc: number, exact: number, m: number): void {
  const expected = (m * exact + 1) / (m + 1);
  const sd = Math.sqrt((exact * (1 - exact)) / m);
  expect(Math.abs(mc - expected)).toBeLessThanOrEqual(4 * sd + 1e-12);
}

describe('exact enumeration helper (checked by hand)', () => {
  it('gives the hand-counted values', () => {
    // [1,2,3]: only +++ and −−− reach |6| → 2/8.
    expect(exactP([1, 2, 3])).toBe(0.25);
    // [3,−1,1]: sums ±(3±1±1) = ±5, ±3, ±3, ±1 → |sum| ≥ 3 in 6 of 8.
    expect(exactP([3, -1, 1])).toBe(0.75);
  });
});

describe('pairedRandomizationTest', () => {
  it('matches the exact p-value of a 10-query case within Monte-Carlo error', () => {
    const units = [6, 2, 4, -1, 3, 5, 1, -2, 4, 2]; // differences in units of 0.05
    const exact = exactP(units);
    expect(exact).toBeGreaterThan(0.001);
    expect(exact).toBeLessThan(0.2);
    const diffs = units.map((u) => u * 0.05);
    for (const seed of [1, 2, 3]) {
      expectNear(pairedRandomizationTest(diffs, { seed }), exact, 10_000);
    }
  });

  it('matches hand-counted exact values', () => {
    expectNear(pairedRandomizationTest([3, -1, 1], { seed: 5 }), 0.75, 10_000);
    expectNear(pairedRandomizationTest([0.1, 0.2, 0.3], { seed: 5 }), 0.25, 10_000);
    // Ten equal differences: only all-plus and all-minus are as extreme → 2/1024.
    expectNear(pairedRandomizationTest(new Array(10).fill(0.01), { seed: 9 }), 2 / 1024, 10_000);
  });

  it('counts permuted sums equal to the observed one up to rounding', () => {
    // [0.1, 0.2, −0.3, 0.5]: in units of 0.1, [1, 2, −3, 5] → exact p = 10/16 (hand count: with +5,
    // ±1±2±3 ∈ {6,0,2,−4,4,−2,0,−6} gives sums 11,5,7,1,9,3,5,−1 → 5 reach 5; the −5 half mirrors it).
    // In floats, −0.1−0.2+0.3+0.5 = 0.49999999999999994 while the observed sum is 0.5.
    expect(exactP([1, 2, -3, 5])).toBe(10 / 16);
    expectNear(pairedRandomizationTest([0.1, 0.2, -0.3, 0.5], { seed: 11 }), 10 / 16, 10_000);
  });

  it('is 1 with no differences or only zero differences', () => {
    expect(pairedRandomizationTest([])).toBe(1);
    expect(pairedRandomizationTest([0, 0, 0])).toBe(1);
  });

  it('never returns 0: the smallest value is 1/(permutations+1)', () => {
    const p = pairedRandomizationTest(new Array(40).fill(1), { permutations: 999 });
    // Exact p = 2/2^40; with 999 permutations almost surely none is as extreme → 1/1000.
    expect(p).toBe(1 / 1000);
  });

  it('is reproducible from the seed; the default is 10,000 permutations', () => {
    const diffs = [0.3, -0.1, 0.2, 0.05, 0.4, -0.2, 0.1];
    const p = pairedRandomizationTest(diffs, { seed: 99 });
    expect(pairedRandomizationTest(diffs, { seed: 99 })).toBe(p);
    expect(pairedRandomizationTest(diffs, { seed: 99, permutations: 10_000 })).toBe(p);
    // (b + 1) / 10001 is a multiple of 1/10001.
    expect(Math.abs(p * 10_001 - Math.round(p * 10_001))).toBeLessThan(1e-6);
    // Sign flips are symmetric, so negating every difference does not change p for the same seed.
    expect(pairedRandomizationTest(diffs.map((d) => -d), { seed: 99 })).toBe(p);
  });

  it('rejects bad input', () => {
    expect(() => pairedRandomizationTest([1], { permutations: 0 })).toThrow(/positive integer/);
    expect(() => pairedRandomizationTest([1], { permutations: 1.5 })).toThrow(/positive integer/);
    expect(() => pairedRandomizationTest([1, NaN])).toThrow(/not finite/);
  });
});
