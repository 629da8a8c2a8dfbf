import { comparisonCsv, SIGNIFICANCE_LEVELS, significanceMark, type RunComparison, type RunSummary } from '../../core/index.ts';
import { downloadText, safeFileName } from '../shared/download.ts';
import { deltaClass, formatDelta, formatMeasure, formatP } from './number-format.ts';

/** Means, deltas, wins/ties/losses and p-values of every compared run and measure, with a CSV download. */
export function ComparisonTable({ comparison, baseline, names }: { comparison: RunComparison; baseline: RunSummary; names: Record<string, string> }) {
  const queryCount = comparison.queryIds.length;
  return (
    <section className="panel" aria-label="Comparison">
      <div className="row spread">
        <h2>Compared with “{baseline.name}”</h2>
        <button
          type="button"
          onClick={() =>
            downloadText(
              `comparison-${safeFileName(baseline.name)}.csv`,
              comparisonCsv(comparison.rows, { baselineName: baseline.name, runNames: names, permutations: comparison.permutations, seed: comparison.seed }),
              'text/csv',
            )
          }
        >
          Download CSV
        </button>
      </div>
      <div className="table-scroll">
        <table className="compact comparison-table" aria-label="Comparison table">
          <thead>
            <tr>
              <th>Run</th>
              <th>Measure</th>
              <th className="num">Mean</th>
              <th className="num">Baseline</th>
              <th className="num">Δ</th>
              <th className="num" title="queries where the run is better / equal / worse">
                W / T / L
              </th>
              <th className="num">p</th>
            </tr>
          </thead>
          <tbody>
            {comparison.rows.map((row, i) => {
              const mark = significanceMark(row.pValue);
              const firstOfRun = i === 0 || comparison.rows[i - 1]!.run !== row.run;
              return (
                <tr key={`${row.run}/${row.measure}`} className={firstOfRun ? 'group-start' : undefined} data-testid="comparison-row">
                  <td>{firstOfRun ? names[row.run] ?? row.run : ''}</td>
                  <td>{row.measure}</td>
                  <td className="num">
                    {formatMeasure(row.mean)}
                    <span className="mark" aria-label={mark ? `significant at p < ${mark === '‡' ? '0.01' : '0.05'}` : undefined}>
                      {mark}
                    </span>
                  </td>
                  <td className="num">{formatMeasure(row.baselineMean)}</td>
                  <td className={`num ${deltaClass(row.delta)}`}>{formatDelta(row.delta)}</td>
                  <td className="num">
                    {row.wins} / {row.ties} / {row.losses}
                  </td>
                  <td className="num" data-testid="p-value">
                    {formatP(row.pValue)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="hint legend" data-testid="significance-legend">
        {SIGNIFICANCE_LEVELS.slice()
          .reverse()
          .map((l) => `${l.mark} p < ${l.alpha}`)
          .join(', ')}
        : two-sided paired randomisation test of the run against the baseline ({comparison.permutations.toLocaleString('en-US')} permutations,
        seed {comparison.seed}), over {queryCount} judged queries. Δ = mean − baseline mean; W / T / L count queries where the run is
        better / equal / worse.
      </p>
    </section>
  );
}
