import { useMemo } from 'react';
import { DataTable, type DataColumn } from '../shared/DataTable.tsx';
import type { WinsRow } from './alpha-chart-data.ts';

/** One query of the selected grid point against the primary. */
export interface PointQueryRow {
  queryId: string;
  /** The query's text ('' when unknown). */
  text: string;
  primary: number;
  value: number;
  delta: number;
}

const byQueryId = (a: PointQueryRow, b: PointQueryRow) => a.queryId.localeCompare(b.queryId, undefined, { numeric: true });

/** Wins, ties and losses of every grid point against the primary on one measure; a point's name selects it. */
export function WinsTable({ rows, measure, primaryValue, selectedId, bestId, onSelect }: {
  rows: readonly WinsRow[];
  measure: string;
  primaryValue: number;
  selectedId: string | null;
  bestId: string | undefined;
  onSelect: (pointId: string) => void;
}) {
  const columns = useMemo(
    (): DataColumn<WinsRow>[] => [
      {
        id: 'point',
        header: 'grid point',
        kind: 'nowrap',
        value: (r) => r.label,
        render: (r) => (
          <>
            <button type="button" className="link" onClick={() => onSelect(r.pointId)}>
              {r.label}
            </button>
            {r.pointId === bestId ? ' ★' : ''}
          </>
        ),
      },
      { id: 'value', header: measure, kind: 'number', value: (r) => r.value, render: (r) => r.value.toFixed(4) },
      { id: 'wins', header: 'wins', kind: 'number', value: (r) => r.counts.wins },
      { id: 'ties', header: 'ties', kind: 'number', value: (r) => r.counts.ties },
      { id: 'losses', header: 'losses', kind: 'number', value: (r) => r.counts.losses },
    ],
    [measure, bestId, onSelect],
  );
  return (
    <>
      <p className="meta" data-testid="wins-primary">
        primary only: {primaryValue.toFixed(4)} (what wins, ties and losses are counted against)
      </p>
      <DataTable
        label="Wins, ties and losses against the primary"
        className="compact wins-table"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.pointId}
        rowProps={(r) => ({ className: r.pointId === selectedId ? 'selected' : undefined })}
        filterLabel="Filter grid points"
        scrollClassName="tall"
      />
    </>
  );
}

/** The selected grid point's value per query beside the primary's, largest change first; Inspect opens a query. */
export function PointQueriesTable({ rows, onInspect }: { rows: readonly PointQueryRow[]; onInspect: (row: PointQueryRow) => void }) {
  const columns = useMemo(
    (): DataColumn<PointQueryRow>[] => [
      { id: 'queryId', header: 'query id', kind: 'id', value: (r) => r.queryId },
      { id: 'text', header: 'query', value: (r) => r.text, maxWidth: '28rem' },
      { id: 'primary', header: 'primary', kind: 'number', value: (r) => r.primary, render: (r) => r.primary.toFixed(4) },
      { id: 'value', header: 'GQR', kind: 'number', value: (r) => r.value, render: (r) => r.value.toFixed(4) },
      {
        id: 'delta',
        header: 'change',
        kind: 'number',
        value: (r) => r.delta,
        render: (r) => (r.delta === 0 ? '=' : r.delta.toFixed(4)),
        cellProps: (r) => ({ className: r.delta > 0 ? 'up' : r.delta < 0 ? 'down' : undefined }),
      },
      {
        id: 'inspect',
        header: '',
        headerLabel: 'Inspect',
        kind: 'actions',
        render: (r) => (
          <button type="button" onClick={() => onInspect(r)} aria-label={`Inspect ${r.queryId}`}>
            Inspect
          </button>
        ),
      },
    ],
    [onInspect],
  );
  return (
    <DataTable
      label="Per-query values of the selected grid point"
      className="compact"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.queryId}
      tieBreak={byQueryId}
      filterLabel="Filter queries"
      columnFilters
      scrollClassName="tall"
    />
  );
}
