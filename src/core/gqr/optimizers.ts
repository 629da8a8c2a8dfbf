import type { GqrOptimizer } from './config.ts';

/** Adam's moment decay rates and stabiliser (G2, docs/decisions.md#g1-to-g4). */
export const ADAM_BETA1 = 0.9;
export const ADAM_BETA2 = 0.999;
export const ADAM_EPSILON = 1e-8;

/** Updates parameters in place from a gradient; stateful across calls (one instance per optimisation run). */
export interface Optimizer {
  step(params: Float64Array, grad: Float64Array): void;
}

/** Plain gradient descent: `θ ← θ − η·g`. */
export class GradientDescent implements Optimizer {
  constructor(private readonly learningRate: number) {}

  step(params: Float64Array, grad: Float64Array): void {
    const lr = this.learningRate;
    for (let j = 0; j < params.length; j++) params[j] -= lr * grad[j];
  }
}

/**
 * Standard bias-corrected Adam: `m ← β1·m + (1−β1)·g`, `v ← β2·v + (1−β2)·g²`,
 * `θ ← θ − η·m̂/(√v̂ + ε)` with `m̂ = m/(1−β1^t)`, `v̂ = v/(1−β2^t)`, t counting from 1.
 */
export class Adam implements Optimizer {
  private readonly m: Float64Array;
  private readonly v: Float64Array;
  private t = 0;

  constructor(
    private readonly learningRate: number,
    size: number,
  ) {
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
  }

  step(params: Float64Array, grad: Float64Array): void {
    this.t++;
    const c1 = 1 - Math.pow(ADAM_BETA1, this.t);
    const c2 = 1 - Math.pow(ADAM_BETA2, this.t);
    const { m, v, learningRate: lr } = this;
    for (let j = 0; j < params.length; j++) {
      const g = grad[j];
      m[j] = ADAM_BETA1 * m[j] + (1 - ADAM_BETA1) * g;
      v[j] = ADAM_BETA2 * v[j] + (1 - ADAM_BETA2) * g * g;
      params[j] -= (lr * (m[j] / c1)) / (Math.sqrt(v[j] / c2) + ADAM_EPSILON);
    }
  }
}

/** A fresh optimizer of the given kind for `size` parameters. */
export function createOptimizer(kind: GqrOptimizer, learningRate: number, size: number): Optimizer {
  return kind === 'adam' ? new Adam(learningRate, size) : new GradientDescent(learningRate);
}
