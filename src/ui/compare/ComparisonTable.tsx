import { comparisonCsv, SIGNIFICANCE_LEVELS, significanceMark, type RunComparison, type RunSummary } from '../../core/index.ts';
import { DataTable, type DataColumn } from '../shared/DataTable.tsx';
import { downloadText, safeFileName } from '../shared/download.ts';
import { deltaClass, formatDelta, formatMeasure, formatP } from './number-format.ts';

/** Means, deltas, wins/ties/losses and p-values of every compared run and measure, with a CSV download. */
export function ComparisonTable({ comparison, baseline, names }: { comparison: RunComparison; baseline: RunSummary; names: Record<string, string> }) {
  const queryCount = comparison.queryIds.length;
  const rows = comparison.rows.map((row, i) => ({ ...row, firstOfRun: i === 0 || comparison.rows[i - 1]!.run !== row.run }));
  const columns: DataColumn<(typeof rows)[number]>[] = [
    { id: 'run', header: 'Run', sortable: false, value: (r) => names[r.run] ?? r.run, render: (r) => (r.firstOfRun ? (names[r.run] ?? r.run) : '') },
    { id: 'measure', header: 'Measure', kind: 'nowrap', sortable: false, value: (r) => r.measure },
    {
      id: 'mean',
      header: 'Mean',
      kind: 'number',
      sortable: false,
      value: (r) => r.mean,
      render: (r) => {
        const mark = significanceMark(r.pValue);
        return (
          <>
            {formatMeasure(r.mean)}
            <span className="mark" aria-label={mark ? `significant at p < ${mark === '‡' ? '0.01' : '0.05'}` : undefined}>
              {mark}
            </span>
          </>
        );
      },
    },
    { id: 'baseline', header: 'Baseline', kind: 'number', sortable: false, value: (r) => r.baselineMean, render: (r) => formatMeasure(r.baselineMean) },
    { id: 'delta', header: 'Δ', kind: 'number', sortable: false, value: (r) => r.delta, render: (r) => formatDelta(r.delta), cellProps: (r) => ({ className: deltaClass(r.delta) }) },
    {
      id: 'wtl',
      header: 'W / T / L',
      headerTitle: 'queries where the run is better / equal / worse',
      kind: 'number',
      sortable: false,
      render: (r) => `${r.wins} / ${r.ties} / ${r.losses}`,
    },
    { id: 'p', header: 'p', kind: 'number', sortable: false, value: (r) => r.pValue, render: (r) => formatP(r.pValue), cellProps: () => ({ 'data-testid': 'p-value' }) },
  ];
  const rowProps = (r: (typeof rows)[number]) => ({ className: r.firstOfRun ? 'group-start' : undefined, 'data-testid': 'comparison-row' });
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
      <DataTable label="Comparison table" className="comparison-table" columns={columns} rows={rows} rowKey={(r) => `${r.run}/${r.measure}`} rowProps={rowProps} />
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
