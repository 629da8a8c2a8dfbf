import { useState } from 'react';
import {
  describeImportMark,
  describeRunPipeline,
  exportRunJson,
  exportRunTrec,
  gqrPool,
  selectionState,
  selectRange,
  setSelected,
  type GqrPipelineSpec,
  type RunSummary,
} from '../../core/index.ts';
import { errorMessage, formatCount } from '../shared/format.ts';
import { getRunStore } from '../services/stores.ts';
import { useDeleteRuns, useRenameRun } from '../shared/runs.ts';
import { downloadText, safeFileName } from '../shared/download.ts';
import { RunFilterBox, useRunGroups, type ShownRunGroup } from '../shared/RunFilterBox.tsx';
import { runRecipeText } from '../shared/recipes.ts';
import { DataTable, type DataColumn } from '../shared/DataTable.tsx';

const byDate = (a: RunSummary, b: RunSummary) => a.createdAt - b.createdAt;

/** The measures shown as columns: those of the runs, in first-seen order. */
export function measureColumns(runs: readonly RunSummary[]): string[] {
  const seen = new Set<string>();
  for (const run of runs) for (const m of run.measures) seen.add(m);
  return [...seen];
}

/** A GQR run's candidate pool in words (`pool 2,000 per child, follows k`); null for other pipelines. */
export function runPoolText(run: Pick<RunSummary, 'pipeline' | 'k'>): string | null {
  if (run.pipeline.kind !== 'gqr') return null;
  try {
    const pool = gqrPool(run.k, (run.pipeline as GqrPipelineSpec).config);
    return `pool ${formatCount(pool.perChild)} per child, ${pool.followsK ? 'follows k' : 'fixed'}`;
  } catch {
    return null;
  }
}

/**
 * Saved runs of a corpus grouped by sweep, with a filter, bulk selection (group checkboxes, shift-click ranges,
 * everything shown) and one bulk delete; rename, export and details per run.
 */
export function RunsTable({
  runs,
  selectedId,
  onSelect,
}: {
  runs: readonly RunSummary[];
  selectedId: string | null;
  onSelect: (id: string | null) => void;
}) {
  const measures = measureColumns(runs);
  const listing = useRunGroups(runs);
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const removeMany = useDeleteRuns();
  const rename = useRenameRun();
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);

  const shownSelected = listing.shown.filter((id) => checked.has(id));
  const allShown = selectionState(listing.shown, checked);

  const exportRun = async (summary: RunSummary, format: 'trec' | 'json' | 'recipe') => {
    setMessage(null);
    try {
      const record = await (await getRunStore()).getRun(summary.id);
      if (!record) throw new Error('The run no longer exists');
      if (format === 'trec') downloadText(`${safeFileName(record.name)}.trec`, exportRunTrec(record));
      else if (format === 'recipe') downloadText(`${safeFileName(record.name)}.recipe.json`, await runRecipeText(record), 'application/json');
      else downloadText(`${safeFileName(record.name)}.json`, exportRunJson(record), 'application/json');
    } catch (error) {
      setMessage(`Could not export “${summary.name}”: ${errorMessage(error)}`);
    }
  };

  const deleteRuns = (ids: string[], what: string) => {
    if (ids.length === 0 || !confirm(`Delete ${what}? This cannot be undone.`)) return;
    setStatus(null);
    setMessage(null);
    const corpusId = runs[0]!.corpusId;
    removeMany.mutate(
      { ids, corpusId },
      {
        onSuccess: (count) => {
          setChecked((c) => setSelected(c, ids, false));
          if (selectedId && ids.includes(selectedId)) onSelect(null);
          setStatus(`Deleted ${formatCount(count)} run(s).`);
        },
        onError: (error) => setMessage(`Nothing was deleted: ${errorMessage(error)}`),
      },
    );
  };

  const toggleRun = (id: string, on: boolean, shift: boolean) => {
    setChecked((c) => (shift ? selectRange(listing.shown, anchor, id, c, on) : setSelected(c, [id], on)));
    setAnchor(id);
  };

  const describeSelection = (ids: string[]) => {
    const whole = listing.groups.filter((g) => g.kind === 'sweep' && g.runs.length === g.total && g.runs.every((r) => ids.includes(r.id)));
    return `${formatCount(ids.length)} run(s)${whole.length > 0 ? `, including the whole sweep${whole.length > 1 ? 's' : ''} ${whole.map((g) => `“${g.title}”`).join(', ')}` : ''}`;
  };

  const save = () => {
    if (!editing) return;
    const run = runs.find((r) => r.id === editing.id);
    if (!run) return setEditing(null);
    rename.mutate({ id: run.id, name: editing.name, corpusId: run.corpusId }, { onSuccess: () => setEditing(null) });
  };

  const columns: DataColumn<RunSummary>[] = [
    {
      id: 'selected',
      header: '',
      headerLabel: 'Selected',
      kind: 'actions',
      render: (run) => (
        <input
          type="checkbox"
          aria-label={`Select “${run.name}”`}
          checked={checked.has(run.id)}
          onChange={() => {}}
          onClick={(e) => toggleRun(run.id, e.currentTarget.checked, e.shiftKey)}
          title="Shift-click selects every run from the last one clicked"
        />
      ),
    },
    {
      id: 'name',
      header: 'Name',
      value: (run) => run.name,
      maxWidth: '20rem',
      render: (run) => (
        <>
          {editing?.id !== run.id ? (
            <button type="button" className="link" onClick={() => onSelect(run.id === selectedId ? null : run.id)} aria-expanded={run.id === selectedId} title="Show the run’s details">
              {run.name}
            </button>
          ) : (
            <form
              className="row"
              onSubmit={(e) => {
                e.preventDefault();
                save();
              }}
            >
              <input type="text" value={editing.name} aria-label="New run name" autoFocus onChange={(e) => setEditing({ id: run.id, name: e.target.value })} />
              <button type="submit">Save</button>
              <button type="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </form>
          )}
          {run.imported && (
            <span className="meta import-mark" data-testid="import-mark">
              {' '}
              {describeImportMark(run.imported, (ms) => new Date(ms).toLocaleString())}
            </span>
          )}
          {rename.isError && editing?.id === run.id && <span className="error"> {errorMessage(rename.error)}</span>}
        </>
      ),
    },
    {
      id: 'pipeline',
      header: 'Pipeline',
      value: (run) => describeRunPipeline(run.pipeline),
      maxWidth: '22rem',
      render: (run) => {
        const pool = runPoolText(run);
        return (
          <>
            {describeRunPipeline(run.pipeline)}
            {pool && (
              <span className="meta" data-testid="run-pool">
                {' '}
                · {pool}
              </span>
            )}
          </>
        );
      },
    },
    { id: 'date', header: 'Date', kind: 'nowrap', descFirst: true, value: (run) => run.createdAt, render: (run) => new Date(run.createdAt).toLocaleString() },
    { id: 'k', header: 'k', kind: 'number', value: (run) => run.k },
    ...measures.map(
      (m): DataColumn<RunSummary> => ({
        id: `measure:${m}`,
        header: m,
        kind: 'number',
        value: (run) => (run.metrics && m in run.metrics.aggregate ? run.metrics.aggregate[m]! : null),
        render: (run) => (run.metrics && m in run.metrics.aggregate ? run.metrics.aggregate[m]!.toFixed(4) : '—'),
        cellProps: () => ({ 'data-measure': m }),
      }),
    ),
    {
      id: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (run) => (
        <>
          <button type="button" onClick={() => setEditing({ id: run.id, name: run.name })} disabled={editing?.id === run.id}>
            Rename
          </button>
          <button type="button" onClick={() => void exportRun(run, 'trec')} title="Download as a TREC run file">
            TREC
          </button>
          <button type="button" onClick={() => void exportRun(run, 'json')} title="Download as JSON with its configuration and metrics">
            JSON
          </button>
          {run.pipeline.kind !== 'imported' && (
            <button type="button" onClick={() => void exportRun(run, 'recipe')} title="Download the recipe: pipeline, analyzer, model files, corpus checksums and versions, to make this run again (here, in another browser or with dsw run --recipe)">
              Recipe
            </button>
          )}
          <button type="button" disabled={removeMany.isPending} onClick={() => deleteRuns([run.id], `the run “${run.name}”`)}>
            Delete
          </button>
        </>
      ),
    },
  ];

  return (
    <>
      <RunFilterBox state={listing} label="saved runs" total={runs.length} />
      <div className="row bulk-bar">
        <label>
          <input
            type="checkbox"
            aria-label="Select every run shown"
            checked={allShown === 'all'}
            ref={(el) => {
              if (el) el.indeterminate = allShown === 'some';
            }}
            onChange={(e) => setChecked((c) => setSelected(c, listing.shown, e.target.checked))}
          />{' '}
          {listing.filtering ? 'Select all shown' : 'Select all'} ({formatCount(listing.shown.length)})
        </label>
        {shownSelected.length > 0 && (
          <>
            <span data-testid="selected-count">{formatCount(shownSelected.length)} selected</span>
            <button type="button" className="danger" disabled={removeMany.isPending} onClick={() => deleteRuns(shownSelected, describeSelection(shownSelected))}>
              Delete {formatCount(shownSelected.length)} selected run(s)
            </button>
            <button type="button" onClick={() => setChecked(new Set())}>
              Clear selection
            </button>
          </>
        )}
        {removeMany.isPending && <span>Deleting…</span>}
      </div>
      {status && (
        <p className="notice" role="status">
          {status}
        </p>
      )}
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      {listing.groups.length === 0 && runs.length > 0 && <p className="hint">No run matches the filter.</p>}
      <DataTable
        label="Saved runs"
        className="runs-table"
        columns={columns}
        rows={runs}
        rowKey={(run) => run.id}
        rowProps={(run) => ({ className: run.id === selectedId ? 'selected' : undefined, 'data-testid': 'run-row' })}
        tieBreak={byDate}
        groups={listing.groups.map((group) => {
          const ids = group.runs.map((r) => r.id);
          return {
            key: group.key,
            rowKeys: ids,
            collapsed: collapsed.has(group.key),
            props: { 'data-testid': 'run-group', 'data-group': group.kind },
            heading: (
              <RunGroupHeading
                group={group}
                columns={columns.length}
                collapsed={collapsed.has(group.key)}
                onToggleCollapsed={() => setCollapsed((c) => setSelected(c, [group.key], !c.has(group.key)))}
                groupState={selectionState(ids, checked)}
                onCheckGroup={(on) => setChecked((c) => setSelected(c, ids, on))}
                onDeleteGroup={() => deleteRuns(ids, `${describeSelection(ids)} of “${group.title}”`)}
              />
            ),
          };
        })}
      />
    </>
  );
}

function RunGroupHeading({
  group,
  columns,
  collapsed,
  onToggleCollapsed,
  groupState,
  onCheckGroup,
  onDeleteGroup,
}: {
  group: ShownRunGroup;
  columns: number;
  collapsed: boolean;
  onToggleCollapsed: () => void;
  groupState: 'all' | 'some' | 'none';
  onCheckGroup: (on: boolean) => void;
  onDeleteGroup: () => void;
}) {
  const count = group.runs.length === group.total ? `${formatCount(group.total)} runs` : `${formatCount(group.runs.length)} of ${formatCount(group.total)} runs shown`;
  return (
    <tr className="group-row">
        <td>
          <input
            type="checkbox"
            aria-label={`Select every run of “${group.title}”`}
            checked={groupState === 'all'}
            ref={(el) => {
              if (el) el.indeterminate = groupState === 'some';
            }}
            onChange={(e) => onCheckGroup(e.target.checked)}
          />
        </td>
        <td colSpan={columns - 2}>
          <button type="button" className="link group-toggle" aria-expanded={!collapsed} onClick={onToggleCollapsed} title={collapsed ? 'Show its runs' : 'Hide its runs'}>
            {collapsed ? '▸' : '▾'} {group.kind === 'sweep' ? `Sweep “${group.title}”` : group.title}
          </button>{' '}
          <span className="meta" data-testid="run-group-count">
            {count}
          </span>
          {group.kind === 'sweep' && group.runs[0] && (
            <span
              className="meta"
              data-testid="run-group-cut"
              title="A ranking cut at top k lacks the documents tied with its last one, and trec_eval orders tied scores by document id: the same pipeline at a larger k can score a little differently at @k measures."
            >
              {' '}
              · ranked at top {group.runs[0].k}, so @{group.runs[0].k} measures can differ a little from runs at a larger k
            </span>
          )}
        </td>
        <td className="actions">
          {group.kind === 'sweep' && (
            <button type="button" onClick={onDeleteGroup} title="Delete every run of this sweep shown here">
              Delete sweep
            </button>
          )}
        </td>
    </tr>
  );
}
