import { useMemo, useState } from 'react';
import { perQueryCsv, type CorpusQuery, type PerQueryComparisonRow, type RunComparison } from '../../core/index.ts';
import { downloadText, safeFileName } from '../shared/download.ts';
import { deltaClass, formatDelta, formatMeasure } from './number-format.ts';

type SortKey = 'queryId' | 'query' | 'baseline' | 'run' | 'delta';

const COLUMNS: ReadonlyArray<{ key: SortKey; label: string; numeric: boolean }> = [
  { key: 'queryId', label: 'Query id', numeric: false },
  { key: 'query', label: 'Query', numeric: false },
  { key: 'baseline', label: 'Baseline', numeric: true },
  { key: 'run', label: 'Run', numeric: true },
  { key: 'delta', label: 'Δ', numeric: true },
];

/** The rows of one run and measure, from a comparison. */
export function perQueryRows(comparison: RunComparison, runKey: string, measure: string, queries: ReadonlyMap<string, CorpusQuery> | undefined): PerQueryComparisonRow[] {
  const values = comparison.perQuery[runKey] ?? {};
  return comparison.queryIds.map((queryId) => {
    const baseline = comparison.baselinePerQuery[queryId]?.[measure] ?? 0;
    const run = values[queryId]?.[measure] ?? 0;
    return { queryId, query: queries?.get(queryId)?.text ?? '', baseline, run, delta: run - baseline };
  });
}

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
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean } | null>(null);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const { key, descending } = sort;
    const out = [...rows].sort((a, b) => {
      const x = a[key];
      const y = b[key];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
      return c !== 0 ? c : a.queryId.localeCompare(b.queryId, undefined, { numeric: true });
    });
    return descending ? out.reverse() : out;
  }, [rows, sort]);

  const clickHeader = (key: SortKey, numeric: boolean) =>
    setSort((s) => (s?.key === key ? { key, descending: !s.descending } : { key, descending: numeric }));

  return (
    <>
      <div className="row spread">
        <p className="hint">Click a column to sort; click a query to see both rankings side by side.</p>
        <button type="button" onClick={() => downloadText(`per-query-${safeFileName(runName)}-${safeFileName(measure)}.csv`, perQueryCsv(sorted, measure, baselineName, runName), 'text/csv')}>
          Download per-query CSV
        </button>
      </div>
      <div className="table-scroll tall">
        <table className="compact per-query-table" aria-label="Per-query table">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  className={c.numeric ? 'num' : undefined}
                  aria-sort={sort?.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button type="button" className="sort" onClick={() => clickHeader(c.key, c.numeric)}>
                    {c.label}
                    {sort?.key === c.key ? (sort.descending ? ' ▼' : ' ▲') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => (
              <tr key={r.queryId} className={r.queryId === openQueryId ? 'selected' : undefined} data-testid="per-query-row">
                <td>
                  <button type="button" className="link" onClick={() => onOpen(r.queryId)} aria-label={`Open rankings of query ${r.queryId}`}>
                    {r.queryId}
                  </button>
                </td>
                <td>{r.query}</td>
                <td className="num">{formatMeasure(r.baseline)}</td>
                <td className="num">{formatMeasure(r.run)}</td>
                <td className={`num ${deltaClass(r.delta)}`}>{formatDelta(r.delta)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
