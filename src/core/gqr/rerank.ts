import type { ScoredDoc } from '../ranking/index.ts';
import { alignScores, buildCandidatePool, missingScoreFloor, scoreMap } from './candidate-pool.ts';
import { assertTopK, resolveGqrConfig, type GqrConfig } from './config.ts';
import { klDivergence, softmax } from './distributions.ts';
import type { GqrInput } from './input.ts';
import { candidateRanks, firstOccurrenceIndices, topScoredDocs } from './ranking.ts';
import { refineQuery } from './refine.ts';
import { chooseScorerPath, resolveScorerMode, type ScorerPath } from './scorer-path.ts';
import type { GqrTrace, GqrTracedResult } from './trace.ts';

/** Everything computed before the optimisation loop. */
interface PreparedRun {
  pool: string[];
  primaryScores: Float64Array;
  primaryFloor: number;
  complementaryScores: Float64Array;
  complementaryFloor: number;
  /** q = softmax(complementary scores, τ). */
  q: Float64Array;
  scorerPath: ScorerPath;
}

function prepare(input: GqrInput, config: GqrConfig): PreparedRun {
  const pool = buildCandidatePool(input.primary, input.complementary, config.candidatePoolMode);
  const primaryMap = scoreMap(input.primary);
  const complementaryMap = scoreMap(input.complementary);
  const primaryFloor = missingScoreFloor(primaryMap);
  const complementaryFloor = missingScoreFloor(complementaryMap);
  const primaryScores = alignScores(pool, primaryMap, primaryFloor);
  const complementaryScores = alignScores(pool, complementaryMap, complementaryFloor);
  const q = softmax(complementaryScores, config.temperature);
  const scorerPath = chooseScorerPath(input, pool, primaryScores, config.scorerMode);
  return { pool, primaryScores, primaryFloor, complementaryScores, complementaryFloor, q, scorerPath };
}

/**
 * Guided Query Refinement (docs/decisions.md#gqr, G1–G3): pools both children's candidates, refines the primary's
 * query representation toward the complementary distribution, and returns the pool's top `topK` by the primary's
 * refined scores (stable: ties keep pool order). Throws on an invalid config or `topK`.
 */
export function gqrRerank(input: GqrInput, topK: number, config?: Partial<GqrConfig>): ScoredDoc[] {
  const resolved = resolveGqrConfig(config);
  assertTopK(topK);
  const run = prepare(input, resolved);
  if (run.pool.length === 0) return [];
  const { scores } = refineQuery(run.scorerPath.queryScorer, run.scorerPath.params, run.q, resolved);
  return topScoredDocs(run.pool, scores, topK);
}

/** {@link gqrRerank} plus a {@link GqrTrace} of the run (G4). `results` equals `gqrRerank`'s answer. */
export function gqrRerankWithTrace(input: GqrInput, topK: number, config?: Partial<GqrConfig>): GqrTracedResult {
  const resolved = resolveGqrConfig(config);
  assertTopK(topK);
  const run = prepare(input, resolved);
  const { pool, scorerPath } = run;
  const trace: GqrTrace = {
    config: resolved,
    topK,
    pool,
    scorer: resolveScorerMode(resolved.scorerMode, input.primarySearchMode),
    path: scorerPath.path,
    pathReason: scorerPath.reason,
    steps: 0,
    primaryScores: Array.from(run.primaryScores),
    primaryFloor: run.primaryFloor,
    complementaryScores: Array.from(run.complementaryScores),
    complementaryFloor: run.complementaryFloor,
    primaryDistribution: [],
    complementaryDistribution: Array.from(run.q),
    targetDistribution: [],
    finalDistribution: [],
    initialScores: [],
    finalScores: [],
    ranks: [],
    losses: [],
  };
  if (pool.length === 0) return { results: [], trace };

  const unique = firstOccurrenceIndices(pool);
  const { scores, target } = refineQuery(scorerPath.queryScorer, scorerPath.params, run.q, resolved, (step, stepScores, p, stepTarget) => {
    trace.ranks.push(candidateRanks(pool, stepScores, unique));
    if (step === 0) {
      trace.initialScores = Array.from(stepScores);
      trace.primaryDistribution = Array.from(p);
    }
    if (stepTarget) trace.losses.push(klDivergence(stepTarget, p));
    else trace.finalDistribution = Array.from(p);
  });
  trace.steps = resolved.nSteps;
  trace.finalScores = Array.from(scores);
  trace.targetDistribution = Array.from(target);
  return { results: topScoredDocs(pool, scores, topK, unique), trace };
}
