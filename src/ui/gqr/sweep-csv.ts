import { describePipeline, formatCsv, type CsvCell } from '../../core/index.ts';
import type { SavedSweep } from '../../core/index.ts';

/**
 * The sweep's numbers as CSV: one row per grid point (its settings, every measure, wins/ties/losses against the
 * primary on `measure`, queries per path), then one row per baseline. Values at full precision.
 */
export function sweepCsv(sweep: Pick<SavedSweep, 'axes' | 'points' | 'evaluation' | 'spec'>, measure: string): string {
  const { evaluation } = sweep;
  const keys = sweep.axes.map((a) => a.key);
  const header: CsvCell[] = ['kind', 'name', ...keys, ...evaluation.measures, `wins vs primary (${measure})`, 'ties', 'losses', 'single', 'multi', 'score-space'];
  const rows: CsvCell[][] = [header];
  const scores = new Map(evaluation.points.map((p) => [p.pointId, p]));
  for (const point of sweep.points) {
    const s = scores.get(point.id);
    if (!s) continue;
    const wtl = s.versusPrimary[measure];
    rows.push([
      'gqr',
      point.id,
      ...keys.map((k) => point.settings[k]),
      ...evaluation.measures.map((m) => s.aggregate[m]),
      wtl?.wins,
      wtl?.ties,
      wtl?.losses,
      s.pathCounts.single,
      s.pathCounts.multi,
      s.pathCounts['score-space'],
    ]);
  }
  const blanks = keys.map(() => null);
  const baseline = (name: string, aggregate: Record<string, number>, wtl?: { wins: number; ties: number; losses: number }) =>
    rows.push(['baseline', name, ...blanks, ...evaluation.measures.map((m) => aggregate[m]), wtl?.wins, wtl?.ties, wtl?.losses, null, null, null]);
  const { primary, complementary, rrf } = evaluation.baselines;
  baseline(`primary only: ${describePipeline(sweep.spec.primary)}`, primary.aggregate, primary.versusPrimary[measure]);
  baseline(`complementary only: ${describePipeline(sweep.spec.complementary)}`, complementary.aggregate, complementary.versusPrimary[measure]);
  baseline('RRF k=60', rrf.aggregate, rrf.versusPrimary[measure]);
  for (const cc of evaluation.cc) baseline(`CC mm w=${cc.weight}`, cc.aggregate, cc.versusPrimary[measure]);
  return formatCsv(rows);
}
