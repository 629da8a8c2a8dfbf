/** Temperatures are clamped to at least this (reference ε). */
export const MIN_TEMPERATURE = 1e-8;

/** The reference's temperature clamp: `max(τ, 1e-8)`. */
export function effectiveTemperature(temperature: number): number {
  return Math.max(temperature, MIN_TEMPERATURE);
}

/**
 * `out = softmax(x / max(τ, 1e-8))`, max-shifted. Falls back to the uniform vector when the normaliser is not
 * finite or ≤ 1e-8, as the reference does: any NaN, a +∞ entry, or all −∞ give uniform; `[−∞, 0]` gives `[0, 1]`.
 * `out` may alias `x`.
 */
export function softmaxInto(x: ArrayLike<number>, temperature: number, out: Float64Array): Float64Array {
  const n = x.length;
  if (n === 0) return out;
  const tau = effectiveTemperature(temperature);
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const y = x[i] / tau;
    if (y > max) max = y;
  }
  let sum = 0;
  for (let i = 0; i < n; i++) {
    // NaN entries are skipped by the max above; they still make `sum` NaN here, which triggers the fallback.
    const e = Math.exp(x[i] / tau - max);
    out[i] = e;
    sum += e;
  }
  if (!Number.isFinite(sum) || sum <= 1e-8) {
    out.fill(1 / n, 0, n);
    return out;
  }
  for (let i = 0; i < n; i++) out[i] /= sum;
  return out;
}

/** Allocating form of {@link softmaxInto}. */
export function softmax(x: ArrayLike<number>, temperature: number): Float64Array {
  return softmaxInto(x, temperature, new Float64Array(x.length));
}

/** `out = (1 − α)·p + α·q`, the consensus target. */
export function mixtureInto(p: ArrayLike<number>, q: ArrayLike<number>, alpha: number, out: Float64Array): Float64Array {
  for (let i = 0; i < p.length; i++) out[i] = (1 - alpha) * p[i] + alpha * q[i];
  return out;
}

/** KL(target ‖ p) = Σ target·ln(target/p), with 0·ln 0 = 0. */
export function klDivergence(target: ArrayLike<number>, p: ArrayLike<number>): number {
  let kl = 0;
  for (let i = 0; i < target.length; i++) {
    if (target[i] > 0) kl += target[i] * Math.log(target[i] / p[i]);
  }
  return kl;
}
