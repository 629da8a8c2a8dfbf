import {
  compareRuns, type CompareOptions, type ComparisonRow, evaluateRun, resolveMeasures, DEFAULT_PERMUTATIONS,
  DEFAULT_SEED, type QrelsMap,
} from '../eval/index.ts';
import { runMapOfRankings, type QueryRanking } from './run-record.ts';

/** A run to compare with the baseline. */
export interface ComparedRun {
  /** Key of the run in the result (its id; names may repeat). */
  key: string;
  rankings: readonly QueryRanking[];
}

/** Everything the comparison views show. */
export interface RunComparison {
  /** One row per run and measure (`row.run` is the run's key), run by run, measure by measure. */
  rows: ComparisonRow[];
  /** Canonical measure names. */
  measures: string[];
  /** The paired queries: the qrels' queries with a relevant judgement, in qrels order. */
  queryIds: string[];
  /** Query id → measure → the baseline's value. */
  baselinePerQuery: Record<string, Record<string, number>>;
  /** Run key → query id → measure → value (0 for a paired query the run misses). */
  perQuery: Record<string, Record<string, Record<string, number>>>;
  permutations: number;
  seed: number;
}

/**
 * Compares runs with a baseline over the same queries (see `compareRuns`): deltas, wins/ties/losses and
 * two-sided paired randomisation tests, plus the per-query values behind them. `onProgress(done, total)` is
 * called after each run.
 */
export function compareRunRankings(
  baseline: readonly QueryRanking[],
  others: readonly ComparedRun[],
  qrels: QrelsMap,
  measureNames: readonly string[],
  options: CompareOptions = {},
  onProgress?: (done: number, total: number) => void,
): RunComparison {
  const measures = resolveMeasures(measureNames);
  const baseMap = runMapOfRankings(baseline);
  const base = evaluateRun(qrels, baseMap, measures, options);
  const queryIds = Object.keys(base.perQuery);
  const rows: ComparisonRow[] = [];
  const perQuery: RunComparison['perQuery'] = {};
  others.forEach((other, i) => {
    const runMap = runMapOfRankings(other.rankings);
    rows.push(...compareRuns(baseMap, new Map([[other.key, runMap]]), qrels, measures, options));
    const evaluated = evaluateRun(qrels, runMap, measures, options).perQuery;
    const zero = Object.fromEntries(measures.map((m) => [m.name, 0]));
    perQuery[other.key] = Object.fromEntries(queryIds.map((q) => [q, evaluated[q] ?? zero]));
    onProgress?.(i + 1, others.length);
  });
  return {
    rows,
    measures: measures.map((m) => m.name),
    queryIds,
    baselinePerQuery: base.perQuery,
    perQuery,
    permutations: options.permutations ?? DEFAULT_PERMUTATIONS,
    seed: options.seed ?? DEFAULT_SEED,
  };
}
