import { describe, expect, it } from 'vitest';
import { klDivergence, mixtureInto, softmax } from './distributions.ts';
import { CosineScorer, cosineScores, flattenRows, IdentityScorer, maxSimScores, MaxSimScorer, type QueryScorer } from './scorers.ts';

/** Deterministic uniform(−1, 1) numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}
const vectors = (rnd: () => number, count: number, dim: number) =>
  Array.from({ length: count }, () => Array.from({ length: dim }, rnd));

/**
 * Checks ∇θ KL(target ‖ softmax(s(θ)/τ)) — target held constant, as in one GQR step — against central finite
 * differences. The analytic gradient is backward(g) with g = (p − target)/τ.
 */
function gradientRelativeError(scorer: QueryScorer, theta: Float64Array, q: number[], alpha: number, tau: number): number {
  const n = scorer.candidateCount;
  const scores = new Float64Array(n);
  scorer.score(theta, scores);
  const p = softmax(scores, tau);
  const target = mixtureInto(p, q, alpha, new Float64Array(n));
  const g = Float64Array.from(p, (pi, i) => (pi - target[i]) / tau);
  const analytic = new Float64Array(theta.length);
  scorer.backward(theta, g, analytic);

  const loss = (t: Float64Array) => {
    const s = new Float64Array(n);
    scorer.score(t, s);
    return klDivergence(target, softmax(s, tau));
  };
  const h = 1e-6;
  let diff = 0;
  let norm = 0;
  for (let j = 0; j < theta.length; j++) {
    const plus = Float64Array.from(theta);
    const minus = Float64Array.from(theta);
    plus[j] += h;
    minus[j] -= h;
    const numeric = (loss(plus) - loss(minus)) / (2 * h);
    diff += (numeric - analytic[j]) ** 2;
    norm += numeric ** 2;
  }
  expect(norm).toBeGreaterThan(1e-6); // a non-trivial gradient
  return Math.sqrt(diff / norm);
}

describe('CosineScorer', () => {
  it('computes cosine similarities', () => {
    const scores = cosineScores([3, 4], [[3, 4], [4, -3], [-6, -8], [1, 0]]);
    expect(scores[0]).toBeCloseTo(1, 15);
    expect(scores[1]).toBeCloseTo(0, 15);
    expect(scores[2]).toBeCloseTo(-1, 15);
    expect(scores[3]).toBeCloseTo(0.6, 15);
  });

  it('scores 0 for a zero-norm query or candidate, with zero gradient for a zero query', () => {
    expect(Array.from(cosineScores([0, 0], [[1, 0], [0, 1]]))).toEqual([0, 0]);
    expect(Array.from(cosineScores([1, 0], [[0, 0], [1, 0]]))).toEqual([0, 1]);
    const scorer = new CosineScorer([[1, 0], [0, 1]], 2);
    const z = Float64Array.from([0, 0]);
    scorer.score(z, new Float64Array(2));
    const grad = Float64Array.from([7, 7]);
    scorer.backward(z, Float64Array.from([1, -1]), grad);
    expect(Array.from(grad)).toEqual([0, 0]);
  });

  it('has the analytic gradient d_i/(‖d_i‖‖z‖) − cos_i·z/‖z‖²', () => {
    // z = [3, 4] (‖z‖ = 5), d = [2, 0] (‖d‖ = 2): cos = 6/10 = 0.6;
    // ∂cos/∂z = [1, 0]/5 − 0.6·[3, 4]/25 = [0.2 − 0.072, −0.096] = [0.128, −0.096]
    const scorer = new CosineScorer([[2, 0]], 2);
    const z = Float64Array.from([3, 4]);
    scorer.score(z, new Float64Array(1));
    const grad = new Float64Array(2);
    scorer.backward(z, Float64Array.from([1]), grad);
    expect(grad[0]).toBeCloseTo(0.128, 15);
    expect(grad[1]).toBeCloseTo(-0.096, 15);
  });

  it('gradient of the GQR loss w.r.t. the query matches central finite differences', () => {
    const rnd = random(7);
    const docs = vectors(rnd, 6, 8);
    const z = Float64Array.from({ length: 8 }, rnd);
    const q = Array.from(softmax(Array.from({ length: 6 }, () => 3 * rnd()), 1));
    const error = gradientRelativeError(new CosineScorer(docs, 8), z, q, 0.5, 0.7);
    expect(error).toBeLessThan(1e-6);
  });

  it('reads Float32Array embeddings into float64 exactly', () => {
    const f32 = Float32Array.from([0.1, 0.2, 0.3]);
    const asF64 = Array.from(f32); // the same float32 values, held as doubles
    expect(Array.from(cosineScores(f32, [f32]))).toEqual(Array.from(cosineScores(asF64, [asF64])));
  });
});

describe('MaxSimScorer', () => {
  it('takes the first index among tied maxima for the subgradient', () => {
    const scorer = new MaxSimScorer([[[1, 0], [1, 5]]], 1, 2);
    const z = Float64Array.from([1, 0]); // both doc vectors give ⟨z, d⟩ = 1
    scorer.score(z, new Float64Array(1));
    const grad = new Float64Array(2);
    scorer.backward(z, Float64Array.from([1]), grad);
    expect(Array.from(grad)).toEqual([1, 0]);
  });

  it('scores an empty candidate 0 with zero gradient, and everything 0 for an empty query', () => {
    expect(Array.from(maxSimScores([[1, 2]], [[], [[-3, 1]]]))).toEqual([0, -1]);
    const scorer = new MaxSimScorer([[], [[2, 0]]], 1, 2);
    const z = Float64Array.from([1, 1]);
    scorer.score(z, new Float64Array(2));
    const grad = new Float64Array(2);
    scorer.backward(z, Float64Array.from([5, 1]), grad);
    expect(Array.from(grad)).toEqual([2, 0]);
    expect(Array.from(maxSimScores([], [[[1, 0]], [[0, 1]]]))).toEqual([0, 0]);
  });

  it('gradient of the GQR loss w.r.t. the query matrix matches central finite differences', () => {
    const rnd = random(11);
    const m = 3;
    const dim = 5;
    const docs = [4, 2, 6, 3, 5].map((count) => vectors(rnd, count, dim));
    const z = flattenRows(vectors(rnd, m, dim), dim);
    const q = Array.from(softmax(Array.from({ length: 5 }, () => 3 * rnd()), 1));
    const error = gradientRelativeError(new MaxSimScorer(docs, m, dim), z, q, 0.5, 0.7);
    expect(error).toBeLessThan(1e-6);
  });
});

describe('IdentityScorer', () => {
  it('scores are the parameters and the gradient is the weights', () => {
    const scorer = new IdentityScorer(3);
    const out = new Float64Array(3);
    scorer.score(Float64Array.from([1, 2, 3]), out);
    expect(Array.from(out)).toEqual([1, 2, 3]);
    scorer.backward(out, Float64Array.from([0.5, -1, 0]), out);
    expect(Array.from(out)).toEqual([0.5, -1, 0]);
  });
});
