import { useState } from 'react';
import { AGENT_METHOD_LABELS, budgetSweepVariants, exportAgentRuns, NUMERIC_RULES, type AgentMethod, type BatchVariant, type BudgetParam } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { useFieldProblems } from '../shared/field-problems.ts';
import { NumberField } from '../shared/NumberField.tsx';
import { downloadText, safeFileName } from '../shared/download.ts';
import { CorpusPicker } from '../shared/CorpusPicker.tsx';
import { useAppStore } from '../shared/app-store.ts';
import { useCorpusQuestions } from './AskPanel.tsx';
import { BatchResults } from './BatchResults.tsx';
import { BatchRecipePanel } from './BatchRecipePanel.tsx';
import { getAgentRunStore, getSettingsStore } from '../services/stores.ts';
import { useActiveHdsJob, useHdsCancelling, useHdsRun } from './run-state.ts';
import { CancelButton } from '../shared/CancelButton.tsx';
import { useSearchSettings } from '../shared/search-settings.ts';
import { agentSettingsOf, useHdsSettings } from './settings-state.ts';

// The oracle context (gold passages given directly) is the reader's upper bound, off by default.
const BASELINES: AgentMethod[] = ['single-shot', 'ircot', 'decomposition', 'oracle-context'];

/** Runs a question set: HDS against the baselines, or HDS over a grid of search budgets. Resumable. */
export function BatchPanel() {
  const corpusId = useAppStore((s) => s.corpusId);
  const questions = useCorpusQuestions(corpusId);
  const settings = useHdsSettings();
  const run = useHdsRun();
  const active = useActiveHdsJob();
  const cancelling = useHdsCancelling();
  const [mode, setMode] = useState<'compare' | 'scaling'>('compare');
  const [baselines, setBaselines] = useState<AgentMethod[]>(['single-shot', 'ircot', 'decomposition']);
  const [param, setParam] = useState<BudgetParam>('maxTurns');
  const [values, setValues] = useState('1, 2, 3, 4');
  const [limit, setLimit] = useState<number | undefined>(undefined);
  const fields = useFieldProblems();
  const [formError, setFormError] = useState<string | null>(null);
  const running = active === 'batch';
  const available = questions.data ?? [];
  const batch = run.batch;

  const start = async () => {
    setFormError(null);
    if (!corpusId) return;
    const agent = agentSettingsOf(settings.budget, settings.baselines);
    let variants: BatchVariant[];
    let name: string;
    try {
      if (mode === 'compare') {
        variants = [{ id: 'hds', label: AGENT_METHOD_LABELS.hds, method: 'hds', settings: agent }, ...baselines.map((m) => ({ id: m, label: AGENT_METHOD_LABELS[m], method: m, settings: agent }))];
        name = baselines.length ? `HDS vs ${baselines.map((m) => AGENT_METHOD_LABELS[m]).join(', ')}` : 'HDS';
      } else {
        const numbers = values.split(/[\s,;]+/).filter(Boolean).map(Number);
        variants = budgetSweepVariants(param, numbers, agent.hds ?? {});
        name = `HDS scaling: ${param === 'maxTurns' ? 'max_turns' : 'max_search_calls'} ${variants.map((v) => v.sweep!.value).join(', ')}`;
      }
    } catch (error) {
      setFormError(errorMessage(error));
      return;
    }
    if (fields.blocked) return;
    const n = limit ?? available.length;
    const questionIds = available.slice(0, n).map((q) => q.id);
    name = `${questionIds.length} questions · ${name}`;
    await settings.flush();
    void run.runBatch({ corpusId, spec: useSearchSettings.getState().deepSearch, provider: settings.provider, variants, questionIds, name });
  };

  const exportBatch = async () => {
    if (!batch) return;
    downloadText(`${safeFileName(batch.name, 'batch')}.json`, await exportAgentRuns(await getAgentRunStore(), await (await getSettingsStore()).secrets(), [batch.id]), 'application/json');
  };

  const progress = run.batchProgress;
  const resumable = batch && !running && batch.status !== 'completed';
  return (
    <section className="panel" aria-label="Batch">
      <div className="row">
        <CorpusPicker />
        <span className="meta">{questions.isSuccess ? `${available.length} question(s) with gold answers` : ''}</span>
      </div>
      {questions.isSuccess && available.length === 0 ? (
        <p className="hint">This corpus has no questions with gold answers (queries with "answers"); the sample corpus has 22.</p>
      ) : (
        <form
          className="batch-form"
          onSubmit={(e) => {
            e.preventDefault();
            void start();
          }}
        >
          <div className="row">
            <label>
              <input type="radio" name="batch-mode" checked={mode === 'compare'} onChange={() => setMode('compare')} /> Compare HDS with baselines
            </label>
            <label>
              <input type="radio" name="batch-mode" checked={mode === 'scaling'} onChange={() => setMode('scaling')} /> Search-budget scaling
            </label>
            <label>
              Questions{' '}
              <NumberField
                optional
                rule={NUMERIC_RULES.questionLimit}
                aria-label="Number of questions"
                placeholder={`all ${available.length}`}
                value={limit}
                onChange={setLimit}
                onProblem={fields.report('Questions')}
              />
            </label>
          </div>
          {mode === 'compare' ? (
            <div className="row" role="group" aria-label="Baselines">
              <span>HDS and:</span>
              {BASELINES.map((m) => (
                <label key={m}>
                  <input
                    type="checkbox"
                    checked={baselines.includes(m)}
                    onChange={(e) => setBaselines(e.target.checked ? BASELINES.filter((b) => b === m || baselines.includes(b)) : baselines.filter((b) => b !== m))}
                  />{' '}
                  {AGENT_METHOD_LABELS[m]}
                </label>
              ))}
              <span className="hint">Same model and retriever for every method.</span>
            </div>
          ) : (
            <div className="row">
              <label>
                Vary{' '}
                <select aria-label="Budget to vary" value={param} onChange={(e) => setParam(e.target.value as BudgetParam)}>
                  <option value="maxTurns">max_turns</option>
                  <option value="maxSearchCalls">max_search_calls</option>
                </select>
              </label>
              <label>
                over <input aria-label="Budget values" value={values} onChange={(e) => setValues(e.target.value)} />
              </label>
              <span className="hint">One HDS run per question and value; the other settings as above.</span>
            </div>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={!!active || !corpusId || available.length === 0 || fields.blocked}>
              Run batch
            </button>
            <CancelButton cancelling={running && cancelling} onCancel={run.cancel} disabled={!running} />
            {active === 'question' && <span className="hint">A question is running on the Ask tab.</span>}
          </div>
          {fields.blocked && (
            <p className="error" role="alert">
              {fields.summary}
            </p>
          )}
          {formError && <p className="error">{formError}</p>}
        </form>
      )}
      {corpusId && <BatchRecipePanel corpusId={corpusId} />}
      {running && progress && (
        <div className="batch-progress" data-testid="batch-progress">
          <progress max={progress.total} value={progress.done} aria-label="Batch progress" />
          <span className="meta">
            {progress.done} of {progress.total} done{progress.current ? ` · running ${progress.current.questionId} with ${batch?.variants.find((v) => v.id === progress.current!.variantId)?.label ?? progress.current.variantId}` : ''}
          </span>
        </div>
      )}
      {run.batchError && (
        <p className="error" role="alert">
          {run.batchError}
        </p>
      )}
      {batch && (
        <>
          <div className="row spread">
            <h3>
              {batch.name} <span className={`badge status-${batch.status}`}>{running ? 'running' : batch.status}</span>
            </h3>
            <div className="row">
              {resumable && (
                <button type="button" onClick={() => void run.resumeBatch(batch.id, settings.provider)} disabled={!!active}>
                  Resume ({batch.items.length} of {batch.questions.length * batch.variants.length} done)
                </button>
              )}
              <button type="button" onClick={() => void exportBatch()} disabled={running}>
                Export JSON
              </button>
              {!running && (
                <button type="button" onClick={run.clearBatch}>
                  Close
                </button>
              )}
            </div>
          </div>
          <BatchResults batch={batch} />
        </>
      )}
    </section>
  );
}
