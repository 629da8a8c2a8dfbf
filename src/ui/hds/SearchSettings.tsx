import { NUMERIC_RULES, type NumericRule } from '../../core/index.ts';
import { NumberField } from '../shared/NumberField.tsx';
import { useAppStore } from '../shared/app-store.ts';
import { useSearchSettings } from '../shared/search-settings.ts';
import { PipelineForm } from '../shared/pipeline-form.tsx';
import { useHdsSettings, type BaselineSettings, type HdsBudget } from './settings-state.ts';

const BUDGET_FIELDS: ReadonlyArray<{ key: keyof HdsBudget & keyof typeof NUMERIC_RULES; label: string; title: string }> = [
  { key: 'maxTurns', label: 'max_turns', title: 'LLM plan turns before the final prompt' },
  { key: 'maxParallelQueries', label: 'max_parallel_queries', title: 'distinct queries read from one response' },
  { key: 'kPerQuery', label: 'k_per_query', title: 'results retrieved per query' },
  { key: 'evidenceBudget', label: 'evidence_budget', title: 'results per query shown to the model' },
  { key: 'maxSearchCalls', label: 'max_search_calls', title: 'retrievals allowed over the whole run' },
  { key: 'retrievalConcurrency', label: 'retrieval_concurrency', title: 'retrievals running at the same time' },
];

const BASELINE_FIELDS: ReadonlyArray<{ key: keyof BaselineSettings; label: string; rule: NumericRule }> = [
  { key: 'singleShotK', label: 'single-shot k', rule: NUMERIC_RULES.baselineK },
  { key: 'ircotKPerStep', label: 'IRCoT k per step', rule: NUMERIC_RULES.baselineK },
  { key: 'ircotMaxSteps', label: 'IRCoT max steps', rule: NUMERIC_RULES.baselineSteps },
  { key: 'decompositionMaxSubquestions', label: 'decomposition sub-questions', rule: NUMERIC_RULES.baselineSteps },
  { key: 'decompositionTopK', label: 'decomposition top k', rule: NUMERIC_RULES.baselineK },
];


/** The HDS budgets and the retriever the agent searches with. */
export function SearchSettings({ showBaselines = false }: { showBaselines?: boolean }) {
  const { budget, setBudget, setSpec, baselines, setBaselines } = useHdsSettings();
  const spec = useSearchSettings((s) => s.deepSearch);
  const corpusId = useAppStore((s) => s.corpusId);
  return (
    <>
      <fieldset aria-label="Hybrid Deep Searcher settings">
        <legend>Hybrid Deep Searcher</legend>
        {BUDGET_FIELDS.map((f) => (
          <label key={f.key} title={f.title}>
            {f.label}{' '}
            <NumberField rule={NUMERIC_RULES[f.key]} aria-label={f.label} value={budget[f.key] as number} onChange={(n) => setBudget({ [f.key]: n })} />
          </label>
        ))}
        <label title="Ask the final prompt when the loop ends without an answer">
          <input type="checkbox" checked={budget.fallbackToFinalPrompt} onChange={(e) => setBudget({ fallbackToFinalPrompt: e.target.checked })} /> fall back to the final prompt
        </label>
        <label title="Go on when some queries of a turn fail; they show [retrieval failed]">
          <input type="checkbox" checked={budget.allowPartialRetrievalFailures} onChange={(e) => setBudget({ allowPartialRetrievalFailures: e.target.checked })} /> allow partial
          retrieval failures
        </label>
      </fieldset>
      <fieldset aria-label="Retriever">
        <legend>Retriever (the agent's search tool)</legend>
        <PipelineForm spec={spec} onChange={setSpec} corpusId={corpusId ?? ''} />
      </fieldset>
      {showBaselines && (
        <fieldset aria-label="Baseline settings">
          <legend>Baselines</legend>
          {BASELINE_FIELDS.map((f) => (
            <label key={f.key}>
              {f.label}{' '}
              <NumberField rule={f.rule} aria-label={f.label} value={baselines[f.key]} onChange={(n) => setBaselines({ [f.key]: n })} />
            </label>
          ))}
        </fieldset>
      )}
    </>
  );
}
