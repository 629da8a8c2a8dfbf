import { TIE_TOLERANCE, evaluateRun, resolveMeasures, type Measure, type QrelsMap } from '../eval/index.ts';
import type { GqrPath } from '../gqr/index.ts';
import type { SweepBaselineName, SweepRuns } from './sweep-runs.ts';

/** Per-query comparison with the primary on one measure. */
export interface WinTieLoss {
  /** Queries where the run beats the primary by at least TIE_TOLERANCE. */
  wins: number;
  /** Queries within TIE_TOLERANCE of the primary. */
  ties: number;
  /** Queries where the run is worse than the primary. */
  losses: number;
}

/** Measure values of one run of a sweep. */
export interface SweepRunScores {
  /** Measure name → mean over the evaluated queries. */
  aggregate: Record<string, number>;
  /** Query id → measure name → value (evaluated queries only). */
  perQuery: Record<string, Record<string, number>>;
  /** Measure name → wins/ties/losses against the primary-only run. */
  versusPrimary: Record<string, WinTieLoss>;
}

/** A grid point's scores, with how many queries took each path. */
export interface SweepPointScores extends SweepRunScores {
  /** The grid point's id. */
  pointId: string;
  /** Queries per optimisation path. */
  pathCounts: Record<GqrPath, number>;
}

/** The best value of a measure among some runs. */
export interface BestValue {
  /** The measure's value. */
  value: number;
  /** The grid point (for GQR) or the weight (for CC) that reached it first. */
  at: string | number;
}

/** A sweep evaluated against qrels. */
export interface SweepEvaluation {
  /** Canonical measure names, in the order asked. */
  measures: string[];
  /** Number of evaluated queries (with at least one relevant judgement). */
  evaluatedQueries: number;
  /** One entry per grid point, in grid order. */
  points: SweepPointScores[];
  /** The baselines' scores. */
  baselines: Record<SweepBaselineName, SweepRunScores>;
  /** Each convex-combination weight's scores. */
  cc: ({ weight: number } & SweepRunScores)[];
  /** Measure name → best grid point (ties: the earlier point). */
  bestPoint: Record<string, BestValue>;
  /** Measure name → best convex-combination weight (ties: the earlier weight). */
  bestCc: Record<string, BestValue>;
}

/** Evaluates every run of a sweep on `measures` (names or parsed), comparing each with the primary-only run per query. */
export function evaluateSweep(runs: SweepRuns, qrels: QrelsMap, measures: readonly (string | Measure)[]): SweepEvaluation {
  const parsed = resolveMeasures(measures);
  const names = parsed.map((m) => m.name);
  const primary = evaluateRun(qrels, runs.baselines.primary, parsed);
  const score = (run: SweepRuns['baselines']['primary']): SweepRunScores => {
    const result = run === runs.baselines.primary ? primary : evaluateRun(qrels, run, parsed);
    return { aggregate: result.aggregate, perQuery: result.perQuery, versusPrimary: versusBaseline(result.perQuery, primary.perQuery, names) };
  };
  const points = runs.points.map(({ point, run, paths }) => {
    const pathCounts: Record<GqrPath, number> = { single: 0, multi: 0, 'score-space': 0 };
    for (const path of Object.values(paths)) pathCounts[path]++;
    return { pointId: point.id, pathCounts, ...score(run) };
  });
  const cc = runs.cc.map(({ weight, run }) => ({ weight, ...score(run) }));
  return {
    measures: names,
    evaluatedQueries: Object.keys(primary.perQuery).length,
    points,
    baselines: { primary: score(runs.baselines.primary), complementary: score(runs.baselines.complementary), rrf: score(runs.baselines.rrf) },
    cc,
    bestPoint: bestValues(points.map((p) => ({ at: p.pointId, aggregate: p.aggregate })), names),
    bestCc: bestValues(cc.map((c) => ({ at: c.weight, aggregate: c.aggregate })), names),
  };
}

/**
 * Wins, ties and losses of a run against a baseline per measure, over the baseline's queries (a query the run
 * lacks counts as 0, as in `evaluateRun`).
 */
export function versusBaseline(
  perQuery: Record<string, Record<string, number>>,
  baseline: Record<string, Record<string, number>>,
  measures: readonly string[],
): Record<string, WinTieLoss> {
  const out: Record<string, WinTieLoss> = {};
  for (const name of measures) {
    const counts: WinTieLoss = { wins: 0, ties: 0, losses: 0 };
    for (const [queryId, values] of Object.entries(baseline)) {
      const diff = (perQuery[queryId]?.[name] ?? 0) - (values[name] ?? 0);
      if (Math.abs(diff) < TIE_TOLERANCE) counts.ties++;
      else if (diff > 0) counts.wins++;
      else counts.losses++;
    }
    out[name] = counts;
  }
  return out;
}

/** Per measure, the highest aggregate among `runs` and where it was reached (the first run on ties). */
export function bestValues(runs: readonly { at: string | number; aggregate: Record<string, number> }[], measures: readonly string[]): Record<string, BestValue> {
  const best: Record<string, BestValue> = {};
  for (const name of measures) {
    for (const run of runs) {
      const value = run.aggregate[name];
      if (value === undefined) continue;
      if (!best[name] || value > best[name].value) best[name] = { value, at: run.at };
    }
  }
  return best;
}
