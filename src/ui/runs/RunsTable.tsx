import { useState } from 'react';
import { describeRunPipeline, exportRunJson, exportRunTrec, type RunSummary } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { getRunStore } from '../services/stores.ts';
import { useDeleteRun, useRenameRun } from '../shared/runs.ts';
import { downloadText, safeFileName } from '../shared/download.ts';
import { runRecipeText } from '../shared/recipes.ts';

/** The measures shown as columns: those of the runs, in first-seen order. */
export function measureColumns(runs: readonly RunSummary[]): string[] {
  const seen = new Set<string>();
  for (const run of runs) for (const m of run.measures) seen.add(m);
  return [...seen];
}

/** Saved runs of a corpus with their metrics; rename, delete, export, open the details. */
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
  const [message, setMessage] = useState<string | null>(null);
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
  return (
    <>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      <div className="table-scroll">
        <table className="compact runs-table" aria-label="Saved runs">
          <thead>
            <tr>
              <th>Name</th>
              <th>Pipeline</th>
              <th>Date</th>
              <th className="num">k</th>
              {measures.map((m) => (
                <th key={m} className="num">
                  {m}
                </th>
              ))}
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                measures={measures}
                selected={run.id === selectedId}
                onSelect={() => onSelect(run.id === selectedId ? null : run.id)}
                onExport={(format) => void exportRun(run, format)}
                onDeleted={() => run.id === selectedId && onSelect(null)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function RunRow({
  run,
  measures,
  selected,
  onSelect,
  onExport,
  onDeleted,
}: {
  run: RunSummary;
  measures: string[];
  selected: boolean;
  onSelect: () => void;
  onExport: (format: 'trec' | 'json' | 'recipe') => void;
  onDeleted: () => void;
}) {
  const rename = useRenameRun();
  const remove = useDeleteRun();
  const [editing, setEditing] = useState<string | null>(null);
  const save = () => {
    if (editing === null) return;
    rename.mutate({ id: run.id, name: editing, corpusId: run.corpusId }, { onSuccess: () => setEditing(null) });
  };
  return (
    <tr className={selected ? 'selected' : undefined} data-testid="run-row">
      <td>
        {editing === null ? (
          <button type="button" className="link" onClick={onSelect} aria-expanded={selected} title="Show the run’s details">
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
            <input type="text" value={editing} aria-label="New run name" autoFocus onChange={(e) => setEditing(e.target.value)} />
            <button type="submit">Save</button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </form>
        )}
        {rename.isError && editing !== null && <span className="error"> {errorMessage(rename.error)}</span>}
      </td>
      <td>{describeRunPipeline(run.pipeline)}</td>
      <td>{new Date(run.createdAt).toLocaleString()}</td>
      <td className="num">{run.k}</td>
      {measures.map((m) => (
        <td key={m} className="num" data-measure={m}>
          {run.metrics && m in run.metrics.aggregate ? run.metrics.aggregate[m]!.toFixed(4) : '—'}
        </td>
      ))}
      <td className="actions">
        <button type="button" onClick={() => setEditing(run.name)} disabled={editing !== null}>
          Rename
        </button>
        <button type="button" onClick={() => onExport('trec')} title="Download as a TREC run file">
          TREC
        </button>
        <button type="button" onClick={() => onExport('json')} title="Download as JSON with its configuration and metrics">
          JSON
        </button>
        {run.pipeline.kind !== 'imported' && (
          <button type="button" onClick={() => onExport('recipe')} title="Download the recipe: pipeline, analyzer, model files, corpus checksums and versions, to make this run again (here, in another browser or with dsw run --recipe)">
            Recipe
          </button>
        )}
        <button
          type="button"
          disabled={remove.isPending}
          onClick={() => {
            if (confirm(`Delete the run “${run.name}”?`)) remove.mutate({ id: run.id, corpusId: run.corpusId }, { onSuccess: onDeleted });
          }}
        >
          Delete
        </button>
        {remove.isError && <span className="error"> {errorMessage(remove.error)}</span>}
      </td>
    </tr>
  );
}
