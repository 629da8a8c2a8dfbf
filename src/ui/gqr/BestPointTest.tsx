import { useMemo } from 'react';
import { describeSettings, testBestPoint, type BestPointComparison, type SavedSweep } from '../../core/index.ts';
import { findPoint } from './alpha-chart-data.ts';

const format = (value: number) => value.toFixed(4);
const signed = (value: number) => {
  const text = Math.abs(value).toFixed(4);
  return Number(text) === 0 ? text : value > 0 ? `+${text}` : `−${text}`;
};

/**
 * The chart's best grid point tested against RRF and the best convex combination on the chart's measure: the
 * Compare page's paired randomisation test (same permutations and seed), with Holm's correction over the two.
 */
export function BestPointTest({ sweep, measure }: { sweep: SavedSweep; measure: string }) {
  const test = useMemo(() => testBestPoint(sweep.evaluation, measure), [sweep.evaluation, measure]);
  if (!test) return null;
  const point = findPoint(sweep.points, test.pointId);
  const label = point ? describeSettings(point.settings) : test.pointId;
  const baselineLabel = (c: BestPointComparison) => (c.baseline === 'rrf' ? 'RRF k=60' : `best CC (w=${c.weight})`);
  return (
    <div className="best-point-test" data-testid="best-point-test">
      <h3>
        Is the best point better? GQR {label} ({measure} {format(test.value)})
      </h3>
      {test.comparisons.length > 0 && (
        <div className="table-scroll">
          <table className="compact" aria-label="Best grid point against RRF and the best convex combination">
            <thead>
              <tr>
                <th>against</th>
                <th className="num">{measure}</th>
                <th className="num">Δ</th>
                <th className="num" title="queries where the best point is better / equal / worse">
                  W / T / L
                </th>
                <th className="num">p</th>
                <th className="num">Holm p</th>
                <th>at α = {test.alpha}</th>
              </tr>
            </thead>
            <tbody>
              {test.comparisons.map((c) => (
                <tr key={c.baseline} data-testid="best-point-row" data-baseline={c.baseline}>
                  <td>{baselineLabel(c)}</td>
                  <td className="num">{format(c.baselineValue)}</td>
                  <td className="num">{signed(c.delta)}</td>
                  <td className="num">
                    {c.wins} / {c.ties} / {c.losses}
                  </td>
                  <td className="num" data-testid="raw-p">
                    {format(c.pValue)}
                  </td>
                  <td className="num" data-testid="holm-p">
                    {format(c.holmP)}
                  </td>
                  <td data-testid="holm-verdict">{c.significant ? 'significant' : 'not significant'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {test.untested.map((u) => (
        <p key={u.baseline} className="hint">
          Not tested against {u.baseline === 'rrf' ? 'RRF' : 'the best CC'}: {u.reason}.
        </p>
      ))}
      <p className="hint">
        Two-sided paired randomisation test over the {sweep.evaluation.evaluatedQueries} judged queries, as on the Compare page (
        {test.permutations.toLocaleString('en-US')} permutations, seed {test.seed}); Holm p corrects for the {test.comparisons.length} tests. The best
        point and the best CC weight are chosen on these same queries, so the p-values are optimistic.
      </p>
    </div>
  );
}
