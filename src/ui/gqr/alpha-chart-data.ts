import {
  describePipeline,
  describeSettings,
  isNumericSweepKey,
  sweepKeyLabel,
  SWEEP_KEYS,
  type GridAxis,
  type GridPoint,
  type SweepEvaluation,
  type SweepKey,
  type SweepValue,
  type WinTieLoss,
} from '../../core/index.ts';
import type { SavedSweep } from '../../core/index.ts';

/** A horizontal reference line of the chart. */
export interface ReferenceLineModel {
  key: 'primary' | 'complementary' | 'rrf' | 'cc';
  label: string;
  value: number;
}

/** One line of the chart: the grid points sharing every setting except the x axis. */
export interface SeriesModel {
  /** dataKey in `rows` (`s0`, `s1`, …). */
  key: string;
  /** The settings that set this line apart, e.g. `target fixed`; '' when the grid varies only the x axis. */
  label: string;
  /** Legend label: `GQR target fixed`, or just `GQR` for the only line. */
  legend: string;
}

/** Everything the α chart draws, computed from a sweep. */
export interface AlphaChartModel {
  measure: string;
  xKey: SweepKey;
  /** Axis label, e.g. `α (mixtureAlpha)`. */
  xLabel: string;
  series: SeriesModel[];
  /** One row per x value (ascending): `x` and each series' value (null where the grid has no such point). */
  rows: ({ x: number } & Record<string, number | null>)[];
  /** series key → x → grid point id, for hover details and the inspector. */
  pointIds: Record<string, Record<number, string>>;
  references: ReferenceLineModel[];
  /** The best grid point on this measure (first on ties). */
  best: { seriesKey: string; x: number; value: number; pointId: string } | null;
  /** Reference lines above the best grid point, highest first: GQR's best is not the best on the chart. */
  beatenBy: ReferenceLineModel[];
}

/** The numeric settings a chart can put on its x axis: the grid's numeric keys, α first. */
export function chartXKeys(axes: readonly GridAxis[]): SweepKey[] {
  const keys = axes.map((a) => a.key).filter(isNumericSweepKey);
  const ordered = SWEEP_KEYS.filter((k) => keys.includes(k));
  return ordered.length > 0 ? ordered : ['mixtureAlpha'];
}

/** Builds the chart of `measure` against `xKey` (default: α if swept, else the first numeric grid key). */
export function buildAlphaChart(sweep: Pick<SavedSweep, 'axes' | 'points' | 'evaluation' | 'spec'>, measure: string, xKey?: SweepKey): AlphaChartModel {
  const x = xKey ?? chartXKeys(sweep.axes)[0]!;
  const { evaluation } = sweep;
  const scoreOf = new Map(evaluation.points.map((p) => [p.pointId, p.aggregate[measure]]));
  const otherKeys = sweep.axes.map((a) => a.key).filter((k) => k !== x);
  const seriesByLabel = new Map<string, SeriesModel>();
  const pointIds: Record<string, Record<number, string>> = {};
  const byX = new Map<number, Record<string, number | null>>();
  let best: AlphaChartModel['best'] = null;
  for (const point of sweep.points) {
    const value = scoreOf.get(point.id);
    if (value === undefined) continue;
    const others: Partial<Record<SweepKey, SweepValue>> = {};
    for (const k of otherKeys) others[k] = point.settings[k];
    const label = otherKeys.length > 0 ? describeSettings(others) : '';
    let series = seriesByLabel.get(label);
    if (!series) {
      series = { key: `s${seriesByLabel.size}`, label, legend: label ? `GQR ${label}` : 'GQR' };
      seriesByLabel.set(label, series);
      pointIds[series.key] = {};
    }
    const xValue = Number(point.config[x]);
    const row = byX.get(xValue) ?? {};
    row[series.key] = value;
    byX.set(xValue, row);
    pointIds[series.key]![xValue] = point.id;
    if (!best || value > best.value) best = { seriesKey: series.key, x: xValue, value, pointId: point.id };
  }
  const series = [...seriesByLabel.values()];
  const rows = [...byX.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([xValue, values]) => {
      const row: { x: number } & Record<string, number | null> = { x: xValue } as { x: number } & Record<string, number | null>;
      for (const s of series) row[s.key] = values[s.key] ?? null;
      return row;
    });
  const references = referenceLines(sweep, measure);
  return {
    measure,
    xKey: x,
    xLabel: `${sweepKeyLabel(x)} (${x})`,
    series,
    rows,
    pointIds,
    references,
    best,
    beatenBy: best ? referencesAbove(references, best.value) : [],
  };
}

/** The reference lines strictly above `value` (beyond rounding noise), highest first. */
export function referencesAbove(references: readonly ReferenceLineModel[], value: number, tolerance = 1e-12): ReferenceLineModel[] {
  return references.filter((r) => r.value > value + tolerance).sort((a, b) => b.value - a.value);
}

function referenceLines(sweep: Pick<SavedSweep, 'evaluation' | 'spec'>, measure: string): ReferenceLineModel[] {
  const { baselines, bestCc } = sweep.evaluation;
  const lines: ReferenceLineModel[] = [];
  const add = (key: ReferenceLineModel['key'], label: string, value: number | undefined) => {
    if (value !== undefined && Number.isFinite(value)) lines.push({ key, label, value });
  };
  add('primary', `primary only (${describePipeline(sweep.spec.primary)})`, baselines.primary.aggregate[measure]);
  add('complementary', `complementary only (${describePipeline(sweep.spec.complementary)})`, baselines.complementary.aggregate[measure]);
  add('rrf', 'RRF k=60', baselines.rrf.aggregate[measure]);
  const cc = bestCc[measure];
  if (cc) add('cc', `best CC (w=${cc.at})`, cc.value);
  return lines;
}

/** One row of the wins/ties/losses table. */
export interface WinsRow {
  pointId: string;
  label: string;
  value: number;
  counts: WinTieLoss;
}

/** Wins/ties/losses of every grid point against the primary on `measure`, in grid order. */
export function winsRows(sweep: Pick<SavedSweep, 'points' | 'evaluation'>, measure: string): WinsRow[] {
  const scores = new Map(sweep.evaluation.points.map((p) => [p.pointId, p]));
  return sweep.points.flatMap((point) => {
    const s = scores.get(point.id);
    const counts = s?.versusPrimary[measure];
    if (!s || !counts) return [];
    return [{ pointId: point.id, label: describeSettings(point.settings), value: s.aggregate[measure] ?? 0, counts }];
  });
}

/** A point's per-query values against the primary's, largest change first. */
export function perQueryDeltas(evaluation: SweepEvaluation, pointId: string, measure: string): { queryId: string; primary: number; value: number; delta: number }[] {
  const point = evaluation.points.find((p) => p.pointId === pointId);
  if (!point) return [];
  return Object.entries(evaluation.baselines.primary.perQuery)
    .map(([queryId, values]) => {
      const primary = values[measure] ?? 0;
      const value = point.perQuery[queryId]?.[measure] ?? 0;
      return { queryId, primary, value, delta: value - primary };
    })
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.queryId.localeCompare(b.queryId));
}

/** The grid point of a sweep by id. */
export function findPoint(points: readonly GridPoint[], id: string): GridPoint | undefined {
  return points.find((p) => p.id === id);
}
