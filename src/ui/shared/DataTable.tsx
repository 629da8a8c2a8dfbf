import { Fragment, useEffect, useMemo, useRef, useState, type HTMLAttributes, type ReactNode, type TdHTMLAttributes } from 'react';
import {
  columnFilteringFeature,
  createFilteredRowModel,
  createSortedRowModel,
  globalFilteringFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnFiltersState,
  type Row,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { cellMatchesFilter, compareCellValues, filterWords, rowMatches, type CellValue } from './table-order.ts';
import './data-table.css';

/**
 * How a column's cells are laid out: `text` wraps between words only, `number` is right-aligned on one line in
 * tabular figures, `nowrap` stays on one line (dates, labels), `id` is one line cut with an ellipsis (its title
 * holds the whole id), `actions` keeps each button whole.
 */
export type ColumnKind = 'text' | 'number' | 'nowrap' | 'id' | 'actions';

export interface DataColumn<T> {
  id: string;
  /** The header text (also the name of its sort button). */
  header: string;
  /** The header's accessible name when the header shows no text (e.g. a checkbox column). */
  headerLabel?: string;
  headerTitle?: string;
  kind?: ColumnKind;
  /** The value the column sorts and filters by; a column without one neither sorts nor filters. */
  value?: (row: T) => CellValue;
  /** What the cell shows; by default its value. */
  render?: (row: T) => ReactNode;
  /** Sortable when it has a value, unless false. */
  sortable?: boolean;
  /** The first click sorts descending (default for numbers). */
  descFirst?: boolean;
  /** Extra attributes of each cell (class, data-*, title). */
  cellProps?: (row: T) => TdHTMLAttributes<HTMLTableCellElement> & Record<`data-${string}`, string | undefined>;
  /** The widest a text cell grows before it wraps (CSS length); 24rem by default. */
  maxWidth?: string;
}

/** Rows shown under one group heading (a `<tbody>` of their own, sorted and filtered within the group). */
export interface DataTableGroup {
  key: string;
  /** The keys of the group's rows. */
  rowKeys: readonly string[];
  /** The group's heading row(s). */
  heading: ReactNode;
  collapsed?: boolean;
  props?: HTMLAttributes<HTMLTableSectionElement> & Record<`data-${string}`, string | undefined>;
}

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  className?: string;
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
  /** Order of rows whose sorted values are equal (ascending; reversed with the sort). */
  tieBreak?: (a: T, b: T) => number;
  /** A filter box over every column with a value; its accessible name. */
  filterLabel?: string;
  /**
   * A filter box under each header of a column with a value ("Filter <header>"): words for text, `> 0.5`, `<= 3` or
   * `0.2..0.4` for numbers; rows must pass every box and the filter box above.
   */
  columnFilters?: boolean;
  groups?: readonly DataTableGroup[];
  /** Rows beyond this many are rendered only near the visible part (not with groups). */
  virtualizeAbove?: number;
  /** The scroll box's class (`tall` limits its height so the header sticks). */
  scrollClassName?: string;
  /** Shown in the table body when no row is left. */
  empty?: ReactNode;
  /** Told the rows shown, in their order, whenever the sort or filter changes them (e.g. for a CSV download). */
  onShownChange?: (rows: readonly T[]) => void;
}

const features = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
});

const KIND_CLASS: Record<ColumnKind, string> = { text: 'text', number: 'num', nowrap: 'nowrap', id: 'id', actions: 'actions' };

/**
 * One table for the workbench's lists: sortable columns (a header click, `aria-sort` on the header), a filter box,
 * a sticky header, cells that never split a number or a word, and long lists rendered only where they are seen.
 */
export function DataTable<T extends RowData>({
  label,
  className,
  columns,
  rows,
  rowKey,
  rowProps,
  tieBreak,
  filterLabel,
  columnFilters = false,
  groups,
  virtualizeAbove = 200,
  scrollClassName,
  empty,
  onShownChange,
}: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState('');
  const [columnFilterState, setColumnFilterState] = useState<ColumnFiltersState>([]);
  const words = useMemo(() => filterWords(filter), [filter]);

  const tableColumns = useMemo(
    () =>
      columns.map((c) => ({
        id: c.id,
        accessorFn: (row: T) => c.value?.(row) ?? undefined,
        enableSorting: c.value !== undefined && c.sortable !== false,
        enableGlobalFilter: c.value !== undefined,
        enableColumnFilter: c.value !== undefined,
        filterFn: Object.assign((row: Row<typeof features, T>, id: string, text: string) => cellMatchesFilter(row.getValue(id) as CellValue, text), {
          autoRemove: (text: unknown) => typeof text !== 'string' || text.trim() === '',
        }),
        sortDescFirst: c.descFirst ?? c.kind === 'number',
        sortFn: (a: Row<typeof features, T>, b: Row<typeof features, T>, id: string) => {
          const order = compareCellValues(a.getValue(id) as CellValue, b.getValue(id) as CellValue);
          return order !== 0 || !tieBreak ? order : tieBreak(a.original, b.original);
        },
      })),
    [columns, tieBreak],
  );
  const data = useMemo(() => [...rows], [rows]);
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);

  const table = useTable({
    features,
    columns: tableColumns,
    data,
    getRowId: (row: T) => rowKey(row),
    state: { sorting, globalFilter: filter, columnFilters: columnFilterState },
    onSortingChange: setSorting,
    onColumnFiltersChange: setColumnFilterState,
    enableSortingRemoval: false,
    getColumnCanGlobalFilter: (column) => byId.get(column.id)?.value !== undefined,
    globalFilterFn: (row: Row<typeof features, T>) => rowMatches(columns.map((c) => (c.value ? c.value(row.original) : undefined)), words),
  });
  const shown = table.getRowModel().rows;
  useEffect(() => {
    onShownChange?.(shown.map((r) => r.original));
  }, [shown, onShownChange]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = !groups && shown.length > virtualizeAbove;
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 30,
    overscan: 12,
    enabled: virtual,
    getItemKey: (index) => shown[index]?.id ?? index,
  });

  const renderRow = (row: Row<typeof features, T>, index?: number) => (
    <tr key={row.id} {...rowProps?.(row.original)} data-index={index} ref={index === undefined ? undefined : virtualizer.measureElement}>
      {columns.map((c) => {
        const kind = c.kind ?? 'text';
        const extra = c.cellProps?.(row.original);
        const content = c.render ? c.render(row.original) : String(c.value?.(row.original) ?? '');
        return (
          <td key={c.id} {...extra} className={[KIND_CLASS[kind], extra?.className].filter(Boolean).join(' ')}>
            {kind === 'text' ? (
              <div className="cell-text" style={c.maxWidth ? { maxWidth: c.maxWidth } : undefined}>
                {content}
              </div>
            ) : kind === 'id' ? (
              <div className="cell-id" style={c.maxWidth ? { maxWidth: c.maxWidth } : undefined} title={String(c.value?.(row.original) ?? '')}>
                {content}
              </div>
            ) : (
              content
            )}
          </td>
        );
      })}
    </tr>
  );

  let body: ReactNode;
  if (groups) {
    const position = new Map(shown.map((r, i) => [r.id, i]));
    const byKey = new Map(shown.map((r) => [r.id, r]));
    body = groups.map((g) => {
      // Unsorted, a group keeps its own order; sorted, the table's.
      const members = g.rowKeys.filter((k) => position.has(k));
      if (sorting.length > 0) members.sort((a, b) => position.get(a)! - position.get(b)!);
      return (
        <tbody key={g.key} {...g.props}>
          {g.heading}
          {!g.collapsed && members.map((k) => <Fragment key={k}>{renderRow(byKey.get(k)!)}</Fragment>)}
        </tbody>
      );
    });
  } else if (virtual) {
    const items = virtualizer.getVirtualItems();
    const before = items[0]?.start ?? 0;
    const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
    body = (
      <tbody>
        {before > 0 && (
          <tr aria-hidden="true" className="spacer">
            <td colSpan={columns.length} style={{ height: before }} />
          </tr>
        )}
        {items.map((item) => renderRow(shown[item.index]!, item.index))}
        {after > 0 && (
          <tr aria-hidden="true" className="spacer">
            <td colSpan={columns.length} style={{ height: after }} />
          </tr>
        )}
      </tbody>
    );
  } else {
    body = (
      <tbody>
        {shown.map((r) => renderRow(r))}
        {shown.length === 0 && empty && (
          <tr className="empty">
            <td colSpan={columns.length}>{empty}</td>
          </tr>
        )}
      </tbody>
    );
  }

  return (
    <>
      {filterLabel && (
        <div className="row data-table-filter">
          <input type="search" value={filter} aria-label={filterLabel} placeholder="Filter rows" onChange={(e) => setFilter(e.target.value)} />
          {(words.length > 0 || columnFilterState.length > 0) && (
            <span className="meta" data-testid="table-filter-count">
              {shown.length} of {rows.length} rows
            </span>
          )}
        </div>
      )}
      <div ref={scrollRef} className={['table-scroll', 'data-table-scroll', virtual ? 'tall' : '', scrollClassName].filter(Boolean).join(' ')}>
        <table className={['compact', 'data-table', className].filter(Boolean).join(' ')} aria-label={label}>
          <thead>
            <tr>
              {table.getHeaderGroups()[0]!.headers.map((header) => {
                const c = byId.get(header.column.id)!;
                const kind = c.kind ?? 'text';
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    className={KIND_CLASS[kind]}
                    title={c.headerTitle}
                    aria-label={c.headerLabel}
                    aria-sort={header.column.getCanSort() ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
                        {c.header}
                        {sorted === 'desc' ? ' ▼' : sorted === 'asc' ? ' ▲' : ''}
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                );
              })}
            </tr>
            {columnFilters && (
              <tr className="column-filters">
                {table.getHeaderGroups()[0]!.headers.map((header) => {
                  const c = byId.get(header.column.id)!;
                  if (!header.column.getCanFilter()) return <th key={header.id} aria-hidden="true" />;
                  const number = (c.kind ?? 'text') === 'number';
                  return (
                    <th key={header.id}>
                      <input
                        type="search"
                        aria-label={`Filter ${c.headerLabel ?? c.header}`}
                        placeholder={number ? '> 0.5, 1..3' : 'contains'}
                        title={number ? 'A number column: > 0.5, >= 0.5, < 0.5, <= 0.5, = 1, or a range 0.2..0.4 (both ends kept)' : 'Keeps rows whose cell holds every word'}
                        value={(header.column.getFilterValue() as string | undefined) ?? ''}
                        onChange={(e) => header.column.setFilterValue(e.target.value)}
                      />
                    </th>
                  );
                })}
              </tr>
            )}
          </thead>
          {body}
        </table>
      </div>
    </>
  );
}
