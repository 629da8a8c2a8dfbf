import { describe, expect, it } from 'vitest';
import { softmax } from './distributions.ts';
import { refineQuery, type RefineOptions } from './refine.ts';
import { CosineScorer, IdentityScorer } from './scorers.ts';

const options = (overrides: Partial<RefineOptions>): RefineOptions => ({
  nSteps: 25,
  learningRate: 0.1,
  temperature: 1,
  mixtureAlpha: 0.5,
  target: 'per-step',
  optimizer: 'gd',
  ...overrides,
});

// Score space, s1 = [ln 3, 0] → p⁽⁰⁾ = [0.75, 0.25]; q = [0.25, 0.75]; τ = 1, η = 1, λ = 0.5.
const LN3 = Math.log(3);
const q = Float64Array.from([0.25, 0.75]);
// After step 0 (identical for both targets): target = [0.5, 0.5], g = p − target = [0.25, −0.25],
// logits = [ln 3 − 0.25, 0.25]. So p⁽¹⁾₁ = 3e^−0.5 / (3e^−0.5 + 1) = 1 / (1 + e^0.5/3) ≈ 0.645340.
const p1 = 1 / (1 + Math.exp(0.5) / 3);

describe('refineQuery targets', () => {
  it('fixed: the target stays the initial mixture (G1)', () => {
    const { scores, target } = refineQuery(
      new IdentityScorer(2),
      Float64Array.from([LN3, 0]),
      q,
      options({ nSteps: 2, learningRate: 1, target: 'fixed' }),
    );
    // Step 1: target still [0.5, 0.5], g = [p1 − 0.5, 0.5 − p1] ≈ [0.145340, −0.145340]
    expect(p1).toBeCloseTo(0.64534, 5);
    expect(scores[0]).toBeCloseTo(LN3 - 0.25 - (p1 - 0.5), 14);
    expect(scores[1]).toBeCloseTo(0.25 + (p1 - 0.5), 14);
    expect(target[0]).toBeCloseTo(0.5, 15);
    expect(target[1]).toBeCloseTo(0.5, 15);
  });

  it('per-step: the target is recomputed from the current p', () => {
    const { scores, target } = refineQuery(
      new IdentityScorer(2),
      Float64Array.from([LN3, 0]),
      q,
      options({ nSteps: 2, learningRate: 1, target: 'per-step' }),
    );
    // Step 1: target = (p⁽¹⁾ + q)/2 ≈ [0.447670, 0.552330], g = p − target = λ(p − q) = 0.5·(p1 − 0.25) ≈ 0.197670
    const g = 0.5 * (p1 - 0.25);
    expect(g).toBeCloseTo(0.19767, 5);
    expect(scores[0]).toBeCloseTo(LN3 - 0.25 - g, 14);
    expect(scores[1]).toBeCloseTo(0.25 + g, 14);
    expect(target[0]).toBeCloseTo((p1 + 0.25) / 2, 15);
  });

  it('fixed converges to the initial blend, per-step to q (as the reference derives)', () => {
    const run = (target: RefineOptions['target']) =>
      softmax(
        refineQuery(
          new IdentityScorer(2),
          Float64Array.from([4, 0]),
          Float64Array.from([0.1, 0.9]),
          options({ nSteps: 600, learningRate: 1, target }),
        ).scores,
        1,
      );
    const fixed = run('fixed');
    expect(fixed[0]).toBeCloseTo(0.5410069, 6); // 0.5·softmax([4, 0]) + 0.5·[0.1, 0.9]
    expect(fixed[1]).toBeCloseTo(0.4589931, 6);
    const perStep = run('per-step');
    expect(perStep[0]).toBeCloseTo(0.1, 12);
  });
});

describe('refineQuery optimizers', () => {
  it('adam: first step moves each logit by about η·sign(g) (G2)', () => {
    // λ = 1 → target = q, g = p − q = [0.5, −0.5]; m̂ = g, v̂ = g², Δ = 0.1·0.5/(0.5 + 1e-8) = 0.1/(1 + 2e-8)
    const { scores } = refineQuery(
      new IdentityScorer(2),
      Float64Array.from([LN3, 0]),
      q,
      options({ nSteps: 1, mixtureAlpha: 1, optimizer: 'adam' }),
    );
    const delta = 0.1 / (1 + 2e-8);
    expect(scores[0]).toBeCloseTo(LN3 - delta, 15);
    expect(scores[1]).toBeCloseTo(delta, 15);
  });

  it('gd and adam differ on the same problem', () => {
    const run = (optimizer: RefineOptions['optimizer']) =>
      refineQuery(new IdentityScorer(2), Float64Array.from([LN3, 0]), q, options({ nSteps: 1, optimizer })).scores[0];
    expect(run('gd')).toBeCloseTo(LN3 - 0.1 * 0.25, 15); // g = 0.5·(0.75 − 0.25)
    expect(run('adam')).toBeCloseTo(LN3 - 0.1 / (1 + 4e-8), 15); // |g| = 0.25
  });
});

describe('refineQuery', () => {
  it('λ = 0 leaves the scores unchanged', () => {
    const { scores } = refineQuery(
      new IdentityScorer(3),
      Float64Array.from([0.3, -2, 5]),
      Float64Array.from([0.9, 0.05, 0.05]),
      options({ mixtureAlpha: 0 }),
    );
    expect(Array.from(scores)).toEqual([0.3, -2, 5]);
    const z = Float64Array.from([0.6, 0.8]);
    const cos = refineQuery(new CosineScorer([[1, 0], [0, 1]], 2), z, Float64Array.from([0, 1]), options({ mixtureAlpha: 0 }));
    expect(Array.from(z)).toEqual([0.6, 0.8]);
    expect(cos.scores[0]).toBeCloseTo(0.6, 15);
  });

  it('updates the parameters in place and returns them', () => {
    const params = Float64Array.from([1, 0]);
    const result = refineQuery(new IdentityScorer(2), params, q, options({ nSteps: 3 }));
    expect(result.params).toBe(params);
    expect(Array.from(params)).toEqual(Array.from(result.scores));
  });

  it('the observer sees steps 0 … N with p = softmax(scores) and no target at N', () => {
    const seen: { step: number; scores: number[]; p: number[]; target: number[] | null }[] = [];
    refineQuery(new IdentityScorer(2), Float64Array.from([LN3, 0]), q, options({ nSteps: 2, learningRate: 1 }), (step, s, p, t) =>
      seen.push({ step, scores: Array.from(s), p: Array.from(p), target: t && Array.from(t) }),
    );
    expect(seen.map((entry) => entry.step)).toEqual([0, 1, 2]);
    expect(seen[0].scores).toEqual([LN3, 0]);
    expect(seen[0].p[0]).toBeCloseTo(0.75, 15);
    expect(seen[0].target?.[0]).toBeCloseTo(0.5, 15);
    expect(seen[1].p[0]).toBeCloseTo(p1, 15);
    expect(seen[2].target).toBeNull();
  });

  it('scales the logit gradient by 1/τ', () => {
    // τ = 0.5: p⁽⁰⁾ = softmax([2 ln 3, 0]) = [0.9, 0.1]; λ = 1, q = [0.25, 0.75] → g = [0.65, −0.65]/0.5 = [1.3, −1.3]
    const { scores } = refineQuery(
      new IdentityScorer(2),
      Float64Array.from([LN3, 0]),
      q,
      options({ nSteps: 1, temperature: 0.5, mixtureAlpha: 1 }),
    );
    expect(scores[0]).toBeCloseTo(LN3 - 0.13, 14);
    expect(scores[1]).toBeCloseTo(0.13, 14);
  });
});
