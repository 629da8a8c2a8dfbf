import { evaluateRun, resolveMeasures, type EvaluateOptions } from './evaluate.ts';
import type { Measure } from './measures.ts';
import { pairedRandomizationTest, type RandomizationOptions } from './randomization.ts';
import type { QrelsMap, RunMap } from './types.ts';
import { idRecord } from '../ids/index.ts';

/** Options of `compareRuns`. */
export interface CompareOptions extends RandomizationOptions, EvaluateOptions {}

/** Two differences closer than this are a tie (absorbs float rounding between equal rankings' values). */
export const TIE_TOLERANCE = 1e-12;

/** One run compared with the baseline on one measure. */
export interface ComparisonRow {
  /** The compared run's name. */
  run: string;
  /** Canonical measure name. */
  measure: string;
  /** The run's mean over the paired queries. */
  mean: number;
  /** The baseline's mean over the same queries. */
  baselineMean: number;
  /** mean − baselineMean. */
  delta: number;
  /** Queries where the run is better by at least TIE_TOLERANCE. */
  wins: number;
  /** Queries where |run − baseline| < TIE_TOLERANCE. */
  ties: number;
  /** Queries where the run is worse by at least TIE_TOLERANCE. */
  losses: number;
  /** Two-sided paired randomisation test p-value (see `pairedRandomizationTest`). */
  pValue: number;
  /** Query id → run value − baseline value, for every paired query. */
  perQueryDelta: Record<string, number>;
}

/**
 * Compares runs with a baseline, per measure. Queries are paired over the baseline's evaluated query set
 * (the qrels' queries with a relevant judgement; a run missing a query scores 0 on it, see `evaluateRun`).
 * Every test starts from the same seed, so a row's p-value does not depend on the other rows.
 * Rows come run by run (in `others` order), measure by measure.
 */
export function compareRuns(
  baseline: RunMap,
  others: ReadonlyMap<string, RunMap>,
  qrels: QrelsMap,
  measures: readonly (string | Measure)[],
  options: CompareOptions = {},
): ComparisonRow[] {
  const parsed = resolveMeasures(measures);
  const base = evaluateRun(qrels, baseline, parsed, options);
  const queryIds = Object.keys(base.perQuery);
  const rows: ComparisonRow[] = [];
  for (const [name, run] of others) {
    const result = evaluateRun(qrels, run, parsed, options);
    for (const measure of parsed) {
      const perQueryDelta = idRecord<number>();
      const differences: number[] = [];
      let wins = 0;
      let ties = 0;
      let losses = 0;
      let runSum = 0;
      let baseSum = 0;
      for (const queryId of queryIds) {
        const runValue = result.perQuery[queryId]?.[measure.name] ?? 0;
        const baseValue = base.perQuery[queryId][measure.name];
        const diff = runValue - baseValue;
        runSum += runValue;
        baseSum += baseValue;
        perQueryDelta[queryId] = diff;
        differences.push(diff);
        if (Math.abs(diff) < TIE_TOLERANCE) ties++;
        else if (diff > 0) wins++;
        else losses++;
      }
      const n = queryIds.length;
      const mean = n === 0 ? 0 : runSum / n;
      const baselineMean = n === 0 ? 0 : baseSum / n;
      rows.push({
        run: name,
        measure: measure.name,
        mean,
        baselineMean,
        delta: mean - baselineMean,
        wins,
        ties,
        losses,
        pValue: pairedRandomizationTest(differences, options),
        perQueryDelta,
      });
    }
  }
  return rows;
}
