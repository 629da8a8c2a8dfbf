import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { AGENT_METHOD_LABELS, batchLockName, exportAgentRuns, importAgentRuns, samplingSettingsOf, type AgentMethod, type AgentRunSummary, type SavedAgentRun } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { RunEnvironmentFacts } from '../shared/RunEnvironmentFacts.tsx';
import { experimentRecipeText } from '../shared/recipes.ts';
import { downloadText, safeFileName } from '../shared/download.ts';
import { getAgentRunStore, getSettingsStore } from '../services/stores.ts';
import { heldLocks } from '../services/workers.ts';
import { agentRunsKey } from '../services/query-keys.ts';
import { useActiveHdsJob, useHdsRun } from './run-state.ts';

/** Saved HDS and baseline runs: open (replay), rename, delete, export and import as JSON. */
export function SavedRuns({ onOpened }: { onOpened(type: 'question' | 'batch'): void }) {
  const client = useQueryClient();
  const run = useHdsRun();
  const active = useActiveHdsJob();
  const runs = useQuery({ queryKey: agentRunsKey, queryFn: async () => (await getAgentRunStore()).list() });
  const locks = useQuery({ queryKey: [...agentRunsKey, 'locks', runs.dataUpdatedAt], queryFn: heldLocks });
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [details, setDetails] = useState<SavedAgentRun | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: agentRunsKey });

  const action = useMutation({
    mutationFn: async (work: () => Promise<unknown>) => work(),
    onError: (error) => setMessage({ ok: false, text: errorMessage(error) }),
    onSettled: refresh,
  });

  const open = async (summary: AgentRunSummary) => {
    const saved = await (await getAgentRunStore()).get(summary.id);
    if (!saved) return setMessage({ ok: false, text: 'This run is no longer saved.' });
    if (saved.type === 'question') run.openQuestion(saved);
    else run.openBatch(saved);
    onOpened(saved.type);
  };

  const exportRuns = async (ids: string[] | undefined, name: string) => {
    const text = await exportAgentRuns(await getAgentRunStore(), await (await getSettingsStore()).secrets(), ids);
    downloadText(`${safeFileName(name, 'runs')}.json`, text, 'application/json');
  };

  const exportRecipe = async (summary: AgentRunSummary) => {
    try {
      const saved = await (await getAgentRunStore()).get(summary.id);
      if (!saved || saved.type !== 'batch') throw new Error('This batch is no longer saved.');
      const { provider, baseUrl, model, assistantPrefill } = saved.llm;
      const experiment = {
        kind: 'hds-batch' as const,
        pipeline: saved.retriever.spec,
        variants: saved.variants,
        llm: { provider, baseUrl, model, ...samplingSettingsOf(saved.llm), ...(assistantPrefill ? { assistantPrefill } : {}) },
        questionIds: saved.questions.map((q) => q.id),
      };
      downloadText(`${safeFileName(saved.name, 'batch')}.recipe.json`, await experimentRecipeText(saved.name, saved.corpusId, experiment, saved.environment), 'application/json');
    } catch (error) {
      setMessage({ ok: false, text: `Could not make the recipe: ${errorMessage(error)}` });
    }
  };

  const importFile = async (file: File) => {
    try {
      const imported = await importAgentRuns(await getAgentRunStore(), await file.text());
      setMessage({ ok: true, text: `Imported ${imported.length} run(s) from ${file.name}.` });
    } catch (error) {
      setMessage({ ok: false, text: `Could not import ${file.name}: ${errorMessage(error)}` });
    } finally {
      void refresh();
    }
  };

  const statusOf = (s: AgentRunSummary): string => {
    if (s.status !== 'running') return s.status;
    if (active === 'batch' && run.batch?.id === s.id) return 'running';
    const held = locks.data;
    return held && !held.has(batchLockName(s.id)) ? 'interrupted' : 'running';
  };

  return (
    <section className="panel" aria-label="Saved runs">
      <div className="row spread">
        <h2>Saved runs</h2>
        <div className="row">
          <button type="button" onClick={() => fileInput.current?.click()}>
            Import JSON…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json"
            hidden
            aria-label="Import runs"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importFile(file);
            }}
          />
          <button type="button" onClick={() => void exportRuns(undefined, 'deep-search-runs')} disabled={!runs.data?.length}>
            Export all
          </button>
        </div>
      </div>
      <p className="hint">Exports hold the runs, their settings and the model's name — never an API key. Opening a run replays it without calling the model.</p>
      {message && (
        <p className={message.ok ? 'ok' : 'error'} role="status">
          {message.text}
        </p>
      )}
      {runs.isError && <p className="error">Could not list the saved runs: {errorMessage(runs.error)}</p>}
      {runs.data?.length === 0 && <p className="hint">No saved runs yet: every question or batch you run is saved here.</p>}
      {runs.data && runs.data.length > 0 && (
        <table className="compact saved-runs" aria-label="Saved runs">
          <thead>
            <tr>
              <th>name</th>
              <th>method</th>
              <th>corpus</th>
              <th>model</th>
              <th>status</th>
              <th>saved</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {runs.data.map((s) => {
              const status = statusOf(s);
              return (
                <tr key={s.id} data-testid="saved-run">
                  <td>
                    {renaming?.id === s.id ? (
                      <form
                        className="row"
                        onSubmit={(e) => {
                          e.preventDefault();
                          const name = renaming.name;
                          setRenaming(null);
                          action.mutate(async () => (await getAgentRunStore()).rename(s.id, name));
                        }}
                      >
                        <input aria-label="New run name" value={renaming.name} autoFocus onChange={(e) => setRenaming({ id: s.id, name: e.target.value })} />
                        <button type="submit">Save</button>
                        <button type="button" onClick={() => setRenaming(null)}>
                          Cancel
                        </button>
                      </form>
                    ) : (
                      <>
                        <span className="run-name">{s.name}</span>
                        {s.detail !== s.name && (
                          <>
                            <br />
                            <span className="meta">{s.detail}</span>
                          </>
                        )}
                      </>
                    )}
                  </td>
                  <td>{s.method === 'batch' ? 'batch' : (AGENT_METHOD_LABELS[s.method as AgentMethod] ?? s.method)}</td>
                  <td>{s.corpusName}</td>
                  <td>{s.model}</td>
                  <td>
                    <span className={`badge status-${status}`}>{status}</span>
                    {s.progress && s.progress.done < s.progress.total && (
                      <span className="meta">
                        {' '}
                        {s.progress.done} of {s.progress.total}
                      </span>
                    )}
                  </td>
                  <td>{new Date(s.createdAt).toLocaleString()}</td>
                  <td>
                    <div className="row actions">
                    <button type="button" onClick={() => void open(s)}>
                      Open
                    </button>
                    <button
                      type="button"
                      aria-pressed={details?.id === s.id}
                      onClick={async () => setDetails(details?.id === s.id ? null : ((await (await getAgentRunStore()).get(s.id)) ?? null))}
                    >
                      Details
                    </button>
                    <button type="button" onClick={() => setRenaming({ id: s.id, name: s.name })}>
                      Rename
                    </button>
                    <button type="button" onClick={() => void exportRuns([s.id], s.name)}>
                      Export
                    </button>
                    {s.type === 'batch' && (
                      <button type="button" onClick={() => void exportRecipe(s)} title="Download the batch's recipe: retriever, methods and settings, model, questions, corpus checksums">
                        Recipe
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={status === 'running'}
                      onClick={() => {
                        if (confirm(`Delete the saved run “${s.name}”?`)) action.mutate(async () => (await getAgentRunStore()).delete(s.id));
                      }}
                    >
                      Delete
                    </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {details && (
        <section className="run-details" aria-label="Saved run details">
          <h3>{details.name}</h3>
          <dl className="facts">
            <div>
              <dt>Retriever</dt>
              <dd>{details.retriever.label}</dd>
            </div>
            <div>
              <dt>Model</dt>
              <dd>{details.llm.model}</dd>
            </div>
            <RunEnvironmentFacts environment={details.environment} />
          </dl>
        </section>
      )}
    </section>
  );
}
