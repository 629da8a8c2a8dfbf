import type { GqrConfig } from './config.ts';
import { effectiveTemperature, mixtureInto, softmaxInto } from './distributions.ts';
import { createOptimizer } from './optimizers.ts';
import type { QueryScorer } from './scorers.ts';

/** The options of the optimisation loop (a subset of {@link GqrConfig}). */
export type RefineOptions = Pick<GqrConfig, 'nSteps' | 'learningRate' | 'temperature' | 'mixtureAlpha' | 'target' | 'optimizer'>;

/**
 * Called with the state at step t (t = 0 … N, t = N being after the last update): the candidates' scores, the
 * primary distribution p = softmax(scores, τ), and the target used at that step (`null` at t = N).
 * The arrays are reused between calls: copy what you keep.
 */
export type RefineObserver = (step: number, scores: Float64Array, p: Float64Array, target: Float64Array | null) => void;

/** The result of {@link refineQuery}. */
export interface RefineResult {
  /** Scores of the candidates under the refined parameters. */
  scores: Float64Array;
  /** The refined parameters (the input array, updated in place). */
  params: Float64Array;
  /** The target of the last step (`per-step`) or the fixed target (`fixed`). */
  target: Float64Array;
}

/**
 * Guided query refinement (all three paths of the reference, docs/decisions.md#gqr-reference): for N steps,
 * p = softmax(s(θ), τ'), target = (1−λ)·p + λ·q (per step) or (1−λ)·p⁽⁰⁾ + λ·q (fixed, G1), logit gradient
 * g = (p − target)/τ', θ ← optimizer(θ, Σ_i g_i·∂s_i/∂θ). Returns s(θ_N). `params` is updated in place.
 */
export function refineQuery(
  scorer: QueryScorer,
  params: Float64Array,
  q: Float64Array,
  options: RefineOptions,
  observer?: RefineObserver,
): RefineResult {
  const n = scorer.candidateCount;
  const tau = effectiveTemperature(options.temperature);
  const alpha = options.mixtureAlpha;
  const fixedTarget = options.target === 'fixed';
  const optimizer = createOptimizer(options.optimizer, options.learningRate, scorer.parameterCount);
  const scores = new Float64Array(n);
  const p = new Float64Array(n);
  const target = new Float64Array(n);
  const logitGrad = new Float64Array(n);
  const paramGrad = new Float64Array(scorer.parameterCount);

  for (let step = 0; step < options.nSteps; step++) {
    scorer.score(params, scores);
    softmaxInto(scores, tau, p);
    if (!fixedTarget || step === 0) mixtureInto(p, q, alpha, target);
    for (let i = 0; i < n; i++) logitGrad[i] = (p[i] - target[i]) / tau;
    if (observer) observer(step, scores, p, target);
    scorer.backward(params, logitGrad, paramGrad);
    optimizer.step(params, paramGrad);
  }
  scorer.score(params, scores);
  if (observer) observer(options.nSteps, scores, softmaxInto(scores, tau, p), null);
  return { scores, params, target };
}
