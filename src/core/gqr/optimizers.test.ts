import { describe, expect, it } from 'vitest';
import { Adam, createOptimizer, GradientDescent } from './optimizers.ts';

describe('GradientDescent', () => {
  it('steps θ ← θ − η·g', () => {
    const params = Float64Array.from([1, -1]);
    new GradientDescent(0.5).step(params, Float64Array.from([0.2, -0.4]));
    expect(Array.from(params)).toEqual([0.9, -0.8]);
  });
});

describe('Adam', () => {
  it('matches hand-computed bias-corrected steps', () => {
    const params = Float64Array.from([1, -1]);
    const adam = new Adam(0.1, 2);

    // Step 1, g = [0.5, −0.2]:
    //   m = 0.1·g = [0.05, −0.02];  v = 0.001·g² = [0.00025, 0.00004]
    //   m̂ = m/(1 − 0.9) = [0.5, −0.2];  v̂ = v/(1 − 0.999) = [0.25, 0.04];  √v̂ = [0.5, 0.2]
    //   Δ = 0.1·m̂/(√v̂ + 1e-8) = [0.1·0.5/0.50000001, −0.1·0.2/0.20000001] ≈ [0.099999998, −0.099999995]
    adam.step(params, Float64Array.from([0.5, -0.2]));
    expect(params[0]).toBeCloseTo(1 - (0.1 * 0.5) / 0.50000001, 15);
    expect(params[1]).toBeCloseTo(-1 + (0.1 * 0.2) / 0.20000001, 15);
    expect(params[0]).toBeCloseTo(0.900000002, 9);

    // Step 2, g = [0.5, 0.2] (second component changes sign):
    //   m = 0.9·[0.05, −0.02] + 0.1·[0.5, 0.2] = [0.095, 0.002]
    //   v = 0.999·[0.00025, 0.00004] + 0.001·[0.25, 0.04] = [0.00049975, 0.00007996]
    //   1 − 0.9² = 0.19,  1 − 0.999² = 0.001999
    //   m̂ = [0.5, 0.0105263158];  v̂ = [0.25, 0.04] exactly (0.001999·0.25 = 0.00049975)
    //   Δ = [0.1·0.5/0.50000001, 0.1·(0.002/0.19)/0.20000001] ≈ [0.099999998, 0.0052631576]
    const before = Float64Array.from(params);
    adam.step(params, Float64Array.from([0.5, 0.2]));
    expect(before[0] - params[0]).toBeCloseTo((0.1 * 0.5) / 0.50000001, 14);
    expect(before[1] - params[1]).toBeCloseTo((0.1 * (0.002 / 0.19)) / 0.20000001, 14);
    expect(before[1] - params[1]).toBeCloseTo(0.0052631576, 10);
  });

  it('leaves a parameter with zero gradient unchanged', () => {
    const params = Float64Array.from([3]);
    new Adam(0.1, 1).step(params, Float64Array.from([0]));
    expect(params[0]).toBe(3);
  });
});

describe('createOptimizer', () => {
  it('builds the requested kind', () => {
    expect(createOptimizer('gd', 0.1, 2)).toBeInstanceOf(GradientDescent);
    expect(createOptimizer('adam', 0.1, 2)).toBeInstanceOf(Adam);
  });
});
