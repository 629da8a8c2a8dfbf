import { mulberry32 } from './prng.ts';

/** Options of the paired randomisation test. */
export interface RandomizationOptions {
  /** Number of random sign-flip permutations. Default 10,000. */
  permutations?: number;
  /** PRNG seed (taken as an unsigned 32-bit integer). Default 42. */
  seed?: number;
}

/** Permutations per test when none is given (M4, docs/decisions.md#metrics). */
export const DEFAULT_PERMUTATIONS = 10_000;
/** Seed when none is given, so that unseeded comparisons are reproducible too. */
export const DEFAULT_SEED = 42;

/**
 * Two-sided paired randomisation (sign-flip permutation) test of the mean of per-query differences
 * (system − baseline) against 0. Each permutation flips the sign of every difference with probability 1/2;
 * it counts as extreme when |its sum| ≥ |observed sum| (with a tolerance of 1e-10 · Σ|d| for rounding).
 *
 * p = (extreme + 1) / (permutations + 1): the standard Monte-Carlo permutation p-value (Phipson & Smyth 2010),
 * which counts the observed assignment and so is never 0. It estimates the exact p-value (the share of all
 * 2^n sign assignments that are extreme) with standard error ≈ sqrt(p(1−p)/permutations).
 * With no differences, or all differences 0, p = 1. The same seed gives the same p-value.
 */
export function pairedRandomizationTest(differences: readonly number[], options: RandomizationOptions = {}): number {
  const permutations = options.permutations ?? DEFAULT_PERMUTATIONS;
  if (!Number.isSafeInteger(permutations) || permutations < 1) {
    throw new Error(`permutations must be a positive integer (got ${permutations})`);
  }
  const n = differences.length;
  if (n === 0) return 1;
  let observed = 0;
  let totalAbs = 0;
  for (const d of differences) {
    if (!Number.isFinite(d)) throw new Error(`a per-query difference is not finite (${d})`);
    observed += d;
    totalAbs += Math.abs(d);
  }
  const threshold = Math.abs(observed) - 1e-10 * totalAbs;
  const next = mulberry32(options.seed ?? DEFAULT_SEED);
  let extreme = 0;
  for (let p = 0; p < permutations; p++) {
    let sum = 0;
    let bits = 0;
    for (let i = 0; i < n; i++) {
      if ((i & 31) === 0) bits = next();
      sum += bits & 1 ? differences[i] : -differences[i];
      bits >>>= 1;
    }
    if (Math.abs(sum) >= threshold) extreme++;
  }
  return (extreme + 1) / (permutations + 1);
}
