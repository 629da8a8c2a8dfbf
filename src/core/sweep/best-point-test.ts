import { TIE_TOLERANCE } from '../eval/index.ts';
import { FAMILY_ALPHA, holmAdjust } from '../eval/index.ts';
import { DEFAULT_PERMUTATIONS, DEFAULT_SEED, pairedRandomizationTest, type RandomizationOptions } from '../eval/index.ts';
import type { SweepEvaluation } from './evaluate-sweep.ts';

/** The sweep's best grid point against one baseline, as the Compare page would test it. */
export interface BestPointComparison {
  /** `rrf`: the RRF baseline; `cc`: the convex combination with the best value of the measure. */
  baseline: 'rrf' | 'cc';
  /** The CC weight (cc only). */
  weight?: number;
  /** The baseline's mean over its evaluated queries. */
  baselineValue: number;
  /** Best point's mean − the baseline's mean, over the same queries. */
  delta: number;
  wins: number;
  ties: number;
  losses: number;
  /** Two-sided paired randomisation test (the Compare page's test, same permutations and seed). */
  pValue: number;
  /** Holm–Bonferroni adjusted over the comparisons made (at most two). */
  holmP: number;
  /** holmP ≤ the family-wise α. */
  significant: boolean;
}

/** The best grid point of a measure tested against RRF and the best convex combination. */
export interface BestPointTest {
  measure: string;
  pointId: string;
  value: number;
  comparisons: BestPointComparison[];
  /** Baselines that could not be tested because their per-query values are not kept, and why. */
  untested: { baseline: 'rrf' | 'cc'; reason: string }[];
  permutations: number;
  seed: number;
  alpha: number;
}

/**
 * Tests the sweep's best grid point on `measure` against the RRF baseline and the best convex combination on
 * that measure, with the paired randomisation test of the Compare page (queries paired over the baseline's
 * evaluated queries, in its order, a missing value counting 0) and Holm's correction over the two tests.
 * Null when the sweep has no best point on the measure.
 */
export function testBestPoint(evaluation: SweepEvaluation, measure: string, options: RandomizationOptions = {}): BestPointTest | null {
  const best = evaluation.bestPoint[measure];
  const point = best ? evaluation.points.find((p) => p.pointId === best.at) : undefined;
  if (!best || !point) return null;
  const untested: BestPointTest['untested'] = [];
  const raw: Omit<BestPointComparison, 'holmP' | 'significant'>[] = [];
  const compare = (baseline: 'rrf' | 'cc', perQuery: Record<string, Record<string, number>>, baselineValue: number, weight?: number) => {
    const differences: number[] = [];
    let wins = 0;
    let ties = 0;
    let losses = 0;
    for (const [queryId, values] of Object.entries(perQuery)) {
      const diff = (point.perQuery[queryId]?.[measure] ?? 0) - (values[measure] ?? 0);
      differences.push(diff);
      if (Math.abs(diff) < TIE_TOLERANCE) ties++;
      else if (diff > 0) wins++;
      else losses++;
    }
    const delta = differences.length === 0 ? 0 : differences.reduce((s, d) => s + d, 0) / differences.length;
    raw.push({ baseline, ...(weight === undefined ? {} : { weight }), baselineValue, delta, wins, ties, losses, pValue: pairedRandomizationTest(differences, options) });
  };

  const rrf = evaluation.baselines.rrf;
  if (Object.keys(rrf.perQuery).length > 0 && rrf.aggregate[measure] !== undefined) compare('rrf', rrf.perQuery, rrf.aggregate[measure]);
  else untested.push({ baseline: 'rrf', reason: 'the RRF run of this sweep is not stored' });

  const bestCc = evaluation.bestCc[measure];
  const cc = bestCc ? evaluation.cc.find((c) => c.weight === Number(bestCc.at)) : undefined;
  if (cc && Object.keys(cc.perQuery).length > 0) compare('cc', cc.perQuery, bestCc!.value, cc.weight);
  else if (bestCc) untested.push({ baseline: 'cc', reason: `the per-query values of CC w=${bestCc.at} are not stored (a saved sweep keeps the CC run that is best on its first measure)` });
  else untested.push({ baseline: 'cc', reason: 'the sweep has no convex-combination scores' });

  const alpha = FAMILY_ALPHA;
  const adjusted = holmAdjust(raw.map((r) => r.pValue));
  return {
    measure,
    pointId: point.pointId,
    value: best.value,
    comparisons: raw.map((r, i) => ({ ...r, holmP: adjusted[i]!, significant: adjusted[i]! <= alpha })),
    untested,
    permutations: options.permutations ?? DEFAULT_PERMUTATIONS,
    seed: options.seed ?? DEFAULT_SEED,
    alpha,
  };
}
