import { useMemo, useState } from 'react';
import { perQueryCsv, type CorpusQuery, type PerQueryComparisonRow, type RunComparison } from '../../core/index.ts';
import { DataTable, type DataColumn } from '../shared/DataTable.tsx';
import { downloadText, safeFileName } from '../shared/download.ts';
import { deltaClass, formatDelta, formatMeasure } from './number-format.ts';

/** The rows of one run and measure, from a comparison. */
export function perQueryRows(comparison: RunComparison, runKey: string, measure: string, queries: ReadonlyMap<string, CorpusQuery> | undefined): PerQueryComparisonRow[] {
  const values = comparison.perQuery[runKey] ?? {};
  return comparison.queryIds.map((queryId) => {
    const baseline = comparison.baselinePerQuery[queryId]?.[measure] ?? 0;
    const run = values[queryId]?.[measure] ?? 0;
    return { queryId, query: queries?.get(queryId)?.text ?? '', baseline, run, delta: run - baseline };
  });
}

const byQueryId = (a: PerQueryComparisonRow, b: PerQueryComparisonRow) => a.queryId.localeCompare(b.queryId, undefined, { numeric: true });

/** Per-query values of one run against the baseline, sortable by any column; a click opens the two rankings. */
export function PerQueryTable({
  rows,
  measure,
  baselineName,
  runName,
  openQueryId,
  onOpen,
}: {
  rows: PerQueryComparisonRow[];
  measure: string;
  baselineName: string;
  runName: string;
  openQueryId: string | null;
  onOpen: (queryId: string) => void;
}) {
  const columns = useMemo(
    (): DataColumn<PerQueryComparisonRow>[] => [
      {
        id: 'queryId',
        header: 'Query id',
        kind: 'id',
        value: (r) => r.queryId,
        render: (r) => (
          <button type="button" className="link" onClick={() => onOpen(r.queryId)} aria-label={`Open rankings of query ${r.queryId}`}>
            {r.queryId}
          </button>
        ),
      },
      { id: 'query', header: 'Query', value: (r) => r.query, maxWidth: '28rem' },
      { id: 'baseline', header: 'Baseline', kind: 'number', value: (r) => r.baseline, render: (r) => formatMeasure(r.baseline) },
      { id: 'run', header: 'Run', kind: 'number', value: (r) => r.run, render: (r) => formatMeasure(r.run) },
      { id: 'delta', header: 'Δ', kind: 'number', value: (r) => r.delta, render: (r) => formatDelta(r.delta), cellProps: (r) => ({ className: deltaClass(r.delta) }) },
    ],
    [onOpen],
  );
  const [shown, setShown] = useState<readonly PerQueryComparisonRow[]>(rows);

  return (
    <>
      <div className="row spread">
        <p className="hint">Click a column to sort; click a query to see both rankings side by side.</p>
        <button type="button" onClick={() => downloadText(`per-query-${safeFileName(runName)}-${safeFileName(measure)}.csv`, perQueryCsv([...shown], measure, baselineName, runName), 'text/csv')}>
          Download per-query CSV
        </button>
      </div>
      <DataTable
        label="Per-query table"
        className="per-query-table"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.queryId}
        rowProps={(r) => ({ className: r.queryId === openQueryId ? 'selected' : undefined, 'data-testid': 'per-query-row' })}
        tieBreak={byQueryId}
        filterLabel="Filter queries"
        columnFilters
        scrollClassName="tall"
        onShownChange={setShown}
      />
    </>
  );
}
