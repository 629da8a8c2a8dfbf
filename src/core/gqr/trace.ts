import type { ScoredDoc } from '../ranking/index.ts';
import type { GqrConfig } from './config.ts';
import type { GqrPath } from './scorer-path.ts';

/**
 * What one GQR run did, for the per-query inspector (G4 in docs/decisions.md). Every vector is aligned to `pool`.
 * Distributions use the run's temperature.
 */
export interface GqrTrace {
  /** The resolved configuration the run used. */
  config: GqrConfig;
  /** The requested number of results. */
  topK: number;
  /** Candidate ids in pool order (in `primary` pool mode an id the primary repeats appears twice). */
  pool: string[];
  /** The scorer mode after resolving `auto`. */
  scorer: 'single' | 'multi';
  /** The optimisation that ran. */
  path: GqrPath;
  /** Why that path ran, e.g. "candidate m012 has no embedding". */
  pathReason: string;
  /** Optimisation steps run: `config.nSteps`, or 0 when the pool is empty. */
  steps: number;
  /** The primary retriever's raw scores, missing candidates at `primaryFloor`. */
  primaryScores: number[];
  /** Score given to candidates the primary did not return. */
  primaryFloor: number;
  /** The complementary retriever's raw scores, missing candidates at `complementaryFloor`. */
  complementaryScores: number[];
  /** Score given to candidates the complementary retriever did not return. */
  complementaryFloor: number;
  /** p⁽⁰⁾: softmax of the path's starting scores (cosine, MaxSim, or the raw primary scores in score space). */
  primaryDistribution: number[];
  /** q: softmax of `complementaryScores`, fixed throughout. */
  complementaryDistribution: number[];
  /** The last step's target (`per-step`) or the fixed target (`fixed`). */
  targetDistribution: number[];
  /** softmax of `finalScores`. */
  finalDistribution: number[];
  /** The path's scores before any update. */
  initialScores: number[];
  /** The path's scores after the last update; the results are these, sorted. */
  finalScores: number[];
  /** `ranks[t][i]`: 1-based rank of `pool[i]` after t steps (t = 0 is the initial ranking), ties by pool order. */
  ranks: number[][];
  /** `losses[t]`: KL(target ‖ p) at step t, before that step's update (t = 0 … steps − 1). */
  losses: number[];
}

/** The ranked results of a run together with its trace. */
export interface GqrTracedResult {
  /** Exactly what `gqrRerank` returns for the same arguments. */
  results: ScoredDoc[];
  /** How the results came about. */
  trace: GqrTrace;
}
