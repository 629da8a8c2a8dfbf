import { FAMILY_ALPHA, holmAdjust, type ComparisonRow } from '../eval/index.ts';
import { formatCsv } from './csv.ts';

/** Significance marks: the first level the p-value is below gives the mark. */
export const SIGNIFICANCE_LEVELS: ReadonlyArray<{ alpha: number; mark: string }> = [
  { alpha: 0.01, mark: '‡' },
  { alpha: 0.05, mark: '†' },
];

/** '‡' when p < 0.01, '†' when p < 0.05, '' otherwise. */
export function significanceMark(pValue: number): string {
  return SIGNIFICANCE_LEVELS.find((level) => pValue < level.alpha)?.mark ?? '';
}

/** What the comparison CSV says about its settings. */
export interface ComparisonCsvOptions {
  /** The baseline run's name. */
  baselineName: string;
  /** Run key (`row.run`) → the run's name; keys without a name are written as is. */
  runNames?: Readonly<Record<string, string>>;
  /** Permutations of the randomisation test. */
  permutations: number;
  seed: number;
}

/**
 * The comparison table as CSV: one row per run and measure, full-precision numbers, the settings in columns. `p_holm`
 * is the Holm–Bonferroni adjusted p-value over every row of the file (the Compare page's correction panel), and
 * `significant_holm` whether it stays at or below the family-wise α (0.05).
 */
export function comparisonCsv(rows: readonly ComparisonRow[], options: ComparisonCsvOptions): string {
  const header = ['baseline', 'run', 'measure', 'mean', 'baseline_mean', 'delta', 'wins', 'ties', 'losses', 'p_value', 'significance', 'p_holm', 'significant_holm', 'queries', 'permutations', 'seed'];
  const holm = holmAdjust(rows.map((r) => r.pValue));
  return formatCsv([
    header,
    ...rows.map((r, i) => [
      options.baselineName,
      options.runNames?.[r.run] ?? r.run,
      r.measure,
      r.mean,
      r.baselineMean,
      r.delta,
      r.wins,
      r.ties,
      r.losses,
      r.pValue,
      significanceMark(r.pValue),
      holm[i]!,
      holm[i]! <= FAMILY_ALPHA,
      r.wins + r.ties + r.losses,
      options.permutations,
      options.seed,
    ]),
  ]);
}

/** One query of a per-query comparison. */
export interface PerQueryComparisonRow {
  queryId: string;
  /** The query's text ('' when unknown). */
  query: string;
  baseline: number;
  run: number;
  /** run − baseline. */
  delta: number;
}

/** The per-query table of one run and measure as CSV. */
export function perQueryCsv(rows: readonly PerQueryComparisonRow[], measure: string, baselineName: string, runName: string): string {
  return formatCsv([
    ['query_id', 'query', 'measure', 'baseline', 'run', 'baseline_value', 'run_value', 'delta'],
    ...rows.map((r) => [r.queryId, r.query, measure, baselineName, runName, r.baseline, r.run, r.delta]),
  ]);
}
