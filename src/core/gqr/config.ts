import { NUMERIC_RULES, numberProblem } from '../options/index.ts';
/** How the candidate pool is formed (docs/decisions.md#gqr-reference). */
export type CandidatePoolMode = 'union' | 'primary';
/** Which primary scorer to refine through; `auto` follows the primary's search mode. */
export type ScorerMode = 'auto' | 'single' | 'multi';
/** Consensus target: recomputed every step (the reference) or fixed from the initial primary distribution (G1). */
export type GqrTarget = 'per-step' | 'fixed';
/** Update rule for the query parameters (G2, docs/decisions.md#g1-to-g4). */
export type GqrOptimizer = 'gd' | 'adam';

/**
 * GQR hyper-parameters. Defaults and validation follow the reference; `target` and `optimizer` are G1/G2
 * (docs/decisions.md#gqr).
 */
export interface GqrConfig {
  /** Each child retriever is asked for `topK × fetchKMultiplier` documents. Default 2. */
  fetchKMultiplier: number;
  /** Number of optimisation steps N (a positive integer). Default 25. */
  nSteps: number;
  /** Step size η. Default 0.1. */
  learningRate: number;
  /** Softmax temperature τ applied to both retrievers' scores. Default 1. */
  temperature: number;
  /** Weight λ of the complementary distribution in the consensus target, in [0, 1]. Default 0.5. */
  mixtureAlpha: number;
  /** `union`: primary ids then new complementary ids; `primary`: primary ids only. Default `union`. */
  candidatePoolMode: CandidatePoolMode;
  /** `single` cosine, `multi` MaxSim, or `auto` (multi iff the primary searches in multi-vector mode). Default `auto`. */
  scorerMode: ScorerMode;
  /** `per-step` consensus target (reference, default) or `fixed` initial mixture (IBM released code). */
  target: GqrTarget;
  /** `gd` plain gradient descent (default) or `adam` (β1 0.9, β2 0.999, ε 1e-8). */
  optimizer: GqrOptimizer;
  /**
   * Beyond the reference: documents each child is asked for, whatever top k is. Absent (the default, the
   * reference): `topK × fetchKMultiplier`, so the candidate pool, and with it the ranking, follows k.
   */
  poolSize?: number;
}

/** The reference defaults plus the workbench's defaults for G1/G2. */
export const DEFAULT_GQR_CONFIG: Readonly<GqrConfig> = Object.freeze({
  fetchKMultiplier: 2,
  nSteps: 25,
  learningRate: 0.1,
  temperature: 1,
  mixtureAlpha: 0.5,
  candidatePoolMode: 'union',
  scorerMode: 'auto',
  target: 'per-step',
  optimizer: 'gd',
});

/**
 * Fills missing (or `undefined`) options with the defaults and validates the result, throwing the reference's
 * messages (checked in the reference's order). Non-finite numbers are rejected with the same messages, and
 * `nSteps` must also be an integer.
 */
export function resolveGqrConfig(config: Partial<GqrConfig> = {}): GqrConfig {
  const resolved: GqrConfig = { ...DEFAULT_GQR_CONFIG };
  for (const key of Object.keys(DEFAULT_GQR_CONFIG) as (keyof GqrConfig)[]) {
    const value = config[key];
    if (value !== undefined) (resolved as unknown as Record<string, unknown>)[key] = value;
  }
  if (config.poolSize !== undefined && config.poolSize !== null) resolved.poolSize = config.poolSize;
  validateGqrConfig(resolved);
  return resolved;
}

/** Throws an Error with the reference's message for the first invalid option. */
export function validateGqrConfig(config: GqrConfig): void {
  if (!isPositive(config.fetchKMultiplier)) throw new Error('fetch_k_multiplier must be positive');
  if (!isPositive(config.nSteps)) throw new Error('n_steps must be positive');
  if (!Number.isInteger(config.nSteps)) throw new Error('n_steps must be an integer');
  if (!isPositive(config.learningRate)) throw new Error('learning_rate must be positive');
  if (!isPositive(config.temperature)) throw new Error('temperature must be positive');
  const alpha = config.mixtureAlpha;
  if (typeof alpha !== 'number' || !(alpha >= 0 && alpha <= 1)) {
    throw new Error('mixture_alpha must be between 0 and 1');
  }
  if (config.candidatePoolMode !== 'primary' && config.candidatePoolMode !== 'union') {
    throw new Error("candidate_pool_mode must be either 'primary' or 'union'");
  }
  if (config.scorerMode !== 'auto' && config.scorerMode !== 'single' && config.scorerMode !== 'multi') {
    throw new Error("scorer_mode must be one of 'auto', 'single', or 'multi'");
  }
  if (config.target !== 'per-step' && config.target !== 'fixed') {
    throw new Error("target must be either 'per-step' or 'fixed'");
  }
  if (config.optimizer !== 'gd' && config.optimizer !== 'adam') {
    throw new Error("optimizer must be either 'gd' or 'adam'");
  }
  // Beyond the reference: an upper bound, so a typo cannot start an optimisation that never ends.
  const steps = numberProblem(NUMERIC_RULES.gqrSteps, config.nSteps);
  if (steps) throw new Error(`n_steps ${steps}`);
  if (config.poolSize !== undefined) {
    const pool = typeof config.poolSize === 'number' ? numberProblem(NUMERIC_RULES.gqrPoolSize, config.poolSize) : 'must be a whole number';
    if (pool) throw new Error(`pool_size ${pool}`);
  }
  const rate = numberProblem(NUMERIC_RULES.gqrLearningRate, config.learningRate);
  if (rate) throw new Error(`learning_rate ${rate}`);
  const temperature = numberProblem(NUMERIC_RULES.gqrTemperature, config.temperature);
  if (temperature) throw new Error(`temperature ${temperature}`);
}

/**
 * How many documents to ask each child retriever for: the fixed `poolSize` when set, else `topK × fetchKMultiplier`
 * (rounded up when the multiplier is fractional). Validates the config like {@link resolveGqrConfig}.
 */
export function gqrFetchK(topK: number, config: Partial<GqrConfig> = {}): number {
  return gqrPool(topK, config).perChild;
}

/** The candidate pool GQR re-ranks at `topK`: how deep each child fetches, and whether that follows k. */
export interface GqrPoolSize {
  /** Documents each child is asked for. */
  perChild: number;
  /** True when the depth is `topK × fetchKMultiplier` (no fixed pool size). */
  followsK: boolean;
  /** Upper bound of the candidate pool: twice `perChild` in `union` mode, `perChild` in `primary` mode. */
  maxCandidates: number;
}

/** The pool GQR re-ranks at `topK` under `config` (validated). */
export function gqrPool(topK: number, config: Partial<GqrConfig> = {}): GqrPoolSize {
  assertTopK(topK);
  const resolved = resolveGqrConfig(config);
  const followsK = resolved.poolSize === undefined;
  const perChild = followsK ? Math.ceil(topK * resolved.fetchKMultiplier) : resolved.poolSize!;
  return { perChild, followsK, maxCandidates: resolved.candidatePoolMode === 'union' ? perChild * 2 : perChild };
}

/** `200 per child (top k 100 × 2), up to 400 candidates` or `500 per child (fixed), …`: the pool in words. */
export function describeGqrPool(topK: number, config: Partial<GqrConfig> = {}): string {
  const pool = gqrPool(topK, config);
  const how = pool.followsK ? `top k ${topK} × ${resolveGqrConfig(config).fetchKMultiplier}` : 'fixed pool size';
  return `${pool.perChild.toLocaleString('en-US')} per child (${how}), up to ${pool.maxCandidates.toLocaleString('en-US')} candidates`;
}

/** Throws unless `topK` is a non-negative integer. */
export function assertTopK(topK: number): void {
  if (!Number.isInteger(topK) || topK < 0) throw new Error('top_k must be a non-negative integer');
}

function isPositive(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
