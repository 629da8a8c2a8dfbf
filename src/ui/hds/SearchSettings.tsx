import {
  FINAL_ANSWER_MODES,
  NUMERIC_RULES,
  PLAN_PROMPT_VARIANTS,
  REPEATED_BLOCK_POLICIES,
  type FinalAnswerMode,
  type NumericRule,
  type PlanPromptVariant,
  type RepeatedBlockPolicy,
} from '../../core/index.ts';
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
  {
    key: 'questionSearchK',
    label: 'question_search_k',
    title: 'before turn 1, search the question itself for this many results and open the log with them (one search call); 0 runs none, as the reference',
  },
];

const BASELINE_FIELDS: ReadonlyArray<{ key: keyof BaselineSettings; label: string; rule: NumericRule }> = [
  { key: 'singleShotK', label: 'single-shot k', rule: NUMERIC_RULES.baselineK },
  { key: 'ircotKPerStep', label: 'IRCoT k per step', rule: NUMERIC_RULES.baselineK },
  { key: 'ircotMaxSteps', label: 'IRCoT max steps', rule: NUMERIC_RULES.baselineSteps },
  { key: 'decompositionMaxSubquestions', label: 'decomposition sub-questions', rule: NUMERIC_RULES.baselineSteps },
  { key: 'decompositionTopK', label: 'decomposition top k', rule: NUMERIC_RULES.baselineK },
];


const REPEATED_BLOCK_LABELS: Readonly<Record<RepeatedBlockPolicy, string>> = {
  log: 'log it and go on (reference)',
  notice: 'tell the model to search anew or answer',
  answer: 'stop searching and answer',
};

const FINAL_ANSWER_LABELS: Readonly<Record<FinalAnswerMode, string>> = {
  reference: 'reference prompt',
  boxed: 'concise, in \\boxed{}',
  'boxed-prefix': 'concise, pre-filled \\boxed{',
};

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
        <label title="Which plan prompt the model gets: the reference's, or the project's own (a Reasoning: line, no re-issued queries, one made-up two-hop example)">
          plan prompt{' '}
          <select aria-label="Plan prompt" value={budget.promptVariant} onChange={(e) => setBudget({ promptVariant: e.target.value as PlanPromptVariant })}>
            {Object.keys(PLAN_PROMPT_VARIANTS).map((v) => (
              <option key={v} value={v}>
                {v === 'reference' ? 'reference' : `${v} (this project's)`}
              </option>
            ))}
          </select>
        </label>
        <label title="How every method's final call asks for the answer: the reference's prompt as it is, a concise answer in \boxed{}, or that with the HDS authors' forced \boxed{ prefix (servers that continue a message)">
          final answer{' '}
          <select aria-label="Final answer" value={budget.finalAnswer} onChange={(e) => setBudget({ finalAnswer: e.target.value as FinalAnswerMode })}>
            {FINAL_ANSWER_MODES.map((m) => (
              <option key={m} value={m}>
                {FINAL_ANSWER_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <label title="What the final prompt reads: the interaction log (the reference), or the distinct passages the search showed with the baselines' reading prompt">
          final prompt reads{' '}
          <select aria-label="Final context" value={budget.finalContext} onChange={(e) => setBudget({ finalContext: e.target.value as HdsBudget['finalContext'] })}>
            <option value="log">the interaction log (reference)</option>
            <option value="passages">the passages shown</option>
          </select>
        </label>
        <label title="When every query of a block was searched before: log it as [already searched in turn N] and go on (the reference), add a line telling the model to search for what is missing or answer, or end the search and ask the final prompt">
          repeated block{' '}
          <select aria-label="Repeated block" value={budget.repeatedBlock} onChange={(e) => setBudget({ repeatedBlock: e.target.value as RepeatedBlockPolicy })}>
            {REPEATED_BLOCK_POLICIES.map((p) => (
              <option key={p} value={p}>
                {REPEATED_BLOCK_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
        <label title="Stop each plan reply at the end of its query block, so the workbench, not the model, writes the results (H9)">
          <input type="checkbox" checked={budget.planStop === 'query-block'} onChange={(e) => setBudget({ planStop: e.target.checked ? 'query-block' : 'none' })} /> stop at the end of the query block
        </label>
        <label title="End a plan reply as soon as it repeats one span over and over (or misspells the end-of-queries marker) instead of letting it run to max_tokens; the reply is kept through the span's first copy and an open query block still runs">
          <input type="checkbox" checked={budget.planGuard === 'loops'} onChange={(e) => setBudget({ planGuard: e.target.checked ? 'loops' : 'off' })} /> end a reply that loops
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
