import { NUMERIC_RULES, numberProblem } from '../options/index.ts';
import { FINAL_ANSWER_MODES, type FinalAnswerMode } from './final-answer.ts';
import { PLAN_GUARDS, type PlanGuard } from './plan-guard.ts';
import { DEFAULT_FINAL_PROMPT, DEFAULT_PLAN_PROMPT, PLAN_PROMPT_VARIANTS, type PlanPromptVariant } from './prompts.ts';
import { formatTemplate } from './template.ts';

/** Settings of one Hybrid Deep Searcher run (the reference, docs/decisions.md#hds-reference, camelCase). */
export interface HdsConfig {
  /** Plan prompt; placeholders {query} {turn} {max_turns} {remaining_search_calls} {interaction_log}. */
  planPromptTemplate: string;
  /** Final prompt used when the loop ends without an answer; placeholders {query} {interaction_log}. */
  finalPromptTemplate: string;
  /** Maximum number of plan turns (LLM calls before the fallback). Default 3. */
  maxTurns: number;
  /** Maximum distinct queries read from one response. Default 4. */
  maxParallelQueries: number;
  /** Results requested per query. Default 3. */
  kPerQuery: number;
  /** Results per query shown to the model in the results block. Default 12. */
  evidenceBudget: number;
  /** Retrieval calls allowed over the whole run (repeated queries cost none, H5). Default 8. */
  maxSearchCalls: number;
  /** Retrievals running at the same time. Default 4. */
  retrievalConcurrency: number;
  /** Ask the final prompt when the loop ends without a (non-empty) answer. Default true. */
  fallbackToFinalPrompt: boolean;
  /** Continue when some queries of a turn fail (they show `[retrieval failed]`); otherwise the run fails. Default false. */
  allowPartialRetrievalFailures: boolean;
  /** The caller's overall top-k: when > 0, each query retrieves `max(1, min(topK, kPerQuery))`. Default: unset. */
  topK?: number;
  /**
   * Which plan prompt `planPromptTemplate` is: `reference` (default), `dsw-1` (the project's own, see
   * `DSW_PLAN_PROMPT`), or `custom`. Naming a variant without a template takes the variant's template; a template that
   * is not a named one's makes the variant `custom`.
   */
  promptVariant: PlanPromptVariant;
  /**
   * Stop sequences of plan calls (H9): `query-block` (default) sends the end-of-queries and begin-results markers
   * (both spellings) as `stop`, so a reply ends with its query block; `none` sends none (the reference).
   */
  planStop: 'query-block' | 'none';
  /**
   * What ends a plan reply that falls into a loop (extension plan-guard): `off` (default) lets it run to max_tokens;
   * `loops` ends the call as soon as the reply's end is one span repeated (8 copies or more, over 64 characters or
   * more, a span of at most 200 with a letter or digit) and keeps the reply through its first copy, or, inside an open
   * query block, at a misspelled end marker (`<|end search queries>`); an open query block is then closed and runs.
   */
  planGuard: PlanGuard;
  /** How the final prompt asks for the answer (H10): `reference` (default), `boxed` or `boxed-prefix`. */
  finalAnswer: FinalAnswerMode;
  /**
   * What a turn whose block only repeats earlier queries leads to (extension `repeated-block`): `log` (default, H5)
   * writes `[already searched in turn N]` per query and goes on; `notice` adds a line to that results block telling
   * the model its block searched nothing new and to search for what is missing or answer; `answer` ends the search
   * there and asks the final prompt (`terminatedBy` `repeated_block_fallback`).
   */
  repeatedBlock: RepeatedBlockPolicy;
  /**
   * What the final prompt reads from (extension `final-context`): `log` (default, the reference) fills
   * `finalPromptTemplate` with the interaction log; `passages` asks the baselines' reading prompt ("Answer the question
   * using the paragraphs below…") over the distinct passages the search showed, in the order first shown, without the
   * queries and the repeats. The answer is asked for by `finalAnswer` either way.
   */
  finalContext: 'log' | 'passages';
  /**
   * Results of a search for the question itself before the first plan turn (extension `question-search`); 0 (default,
   * the reference) runs none. The search costs one search call, is recorded as `HdsRun.questionSearch`, and its results
   * block opens the interaction log, labelled with the question, so the first plan turn reads what single-shot RAG
   * reads; a later query equal to the question is a repeat (H5).
   */
  questionSearchK: number;
}

/** The choices of {@link HdsConfig.repeatedBlock}. */
export const REPEATED_BLOCK_POLICIES = ['log', 'notice', 'answer'] as const;
export type RepeatedBlockPolicy = (typeof REPEATED_BLOCK_POLICIES)[number];

/** The reference defaults. */
export const DEFAULT_HDS_CONFIG: Readonly<HdsConfig> = Object.freeze({
  planPromptTemplate: DEFAULT_PLAN_PROMPT,
  finalPromptTemplate: DEFAULT_FINAL_PROMPT,
  maxTurns: 3,
  maxParallelQueries: 4,
  kPerQuery: 3,
  evidenceBudget: 12,
  maxSearchCalls: 8,
  retrievalConcurrency: 4,
  fallbackToFinalPrompt: true,
  allowPartialRetrievalFailures: false,
  promptVariant: 'reference',
  planStop: 'query-block',
  planGuard: 'off',
  finalAnswer: 'reference',
  repeatedBlock: 'log',
  finalContext: 'log',
  questionSearchK: 0,
});

/** An invalid HDS setting; the message is the reference's (e.g. `max_turns must be >= 1`). */
export class HdsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HdsConfigError';
  }
}

const BUDGET_NAMES = [
  ['maxTurns', 'max_turns'],
  ['maxParallelQueries', 'max_parallel_queries'],
  ['kPerQuery', 'k_per_query'],
  ['evidenceBudget', 'evidence_budget'],
  ['maxSearchCalls', 'max_search_calls'],
  ['retrievalConcurrency', 'retrieval_concurrency'],
  ['questionSearchK', 'question_search_k'],
] as const;

function requireWhole(value: number, name: string): void {
  if (!Number.isInteger(value)) throw new HdsConfigError(`${name} must be a whole number`);
}

/** Checks a configuration in the reference's order; throws `HdsConfigError`. */
export function validateHdsConfig(config: HdsConfig): void {
  if (config.maxTurns < 1) throw new HdsConfigError('max_turns must be >= 1');
  if (config.maxParallelQueries < 1) throw new HdsConfigError('max_parallel_queries must be >= 1');
  if (config.kPerQuery < 1) throw new HdsConfigError('k_per_query must be >= 1');
  if (config.evidenceBudget < 1 || config.maxSearchCalls < 1 || config.retrievalConcurrency < 1) {
    throw new HdsConfigError('evidence_budget, max_search_calls, and retrieval_concurrency must be >= 1');
  }
  requireWhole(config.maxTurns, 'max_turns');
  requireWhole(config.maxParallelQueries, 'max_parallel_queries');
  requireWhole(config.kPerQuery, 'k_per_query');
  requireWhole(config.evidenceBudget, 'evidence_budget');
  requireWhole(config.maxSearchCalls, 'max_search_calls');
  requireWhole(config.retrievalConcurrency, 'retrieval_concurrency');
  if (config.topK !== undefined) requireWhole(config.topK, 'top_k');
  // Beyond the reference: upper bounds (core/options/numeric-rules.ts), so a typo cannot start an endless run.
  for (const [key, name] of BUDGET_NAMES) {
    const problem = numberProblem(NUMERIC_RULES[key], config[key]);
    if (problem) throw new HdsConfigError(`${name} ${problem}`);
  }
  if (!(config.promptVariant in PLAN_PROMPT_VARIANTS) && config.promptVariant !== 'custom') {
    throw new HdsConfigError(`prompt_variant must be one of ${[...Object.keys(PLAN_PROMPT_VARIANTS), 'custom'].join(', ')}`);
  }
  if (config.planStop !== 'query-block' && config.planStop !== 'none') throw new HdsConfigError('plan_stop must be query-block or none');
  if (!PLAN_GUARDS.includes(config.planGuard)) throw new HdsConfigError(`plan_guard must be one of ${PLAN_GUARDS.join(', ')}`);
  if (!FINAL_ANSWER_MODES.includes(config.finalAnswer)) throw new HdsConfigError(`final_answer must be one of ${FINAL_ANSWER_MODES.join(', ')}`);
  if (config.finalContext !== 'log' && config.finalContext !== 'passages') throw new HdsConfigError('final_context must be log or passages');
  if (!REPEATED_BLOCK_POLICIES.includes(config.repeatedBlock)) throw new HdsConfigError(`repeated_block must be one of ${REPEATED_BLOCK_POLICIES.join(', ')}`);
  // Fail before the first LLM call rather than at the first render.
  formatTemplate(config.planPromptTemplate, {
    query: '',
    turn: 1,
    max_turns: 1,
    remaining_search_calls: 1,
    interaction_log: '',
  });
  formatTemplate(config.finalPromptTemplate, { query: '', interaction_log: '' });
}

/** The defaults overridden by `overrides` (undefined values ignored), validated. */
export function resolveHdsConfig(overrides: Partial<HdsConfig> = {}): HdsConfig {
  const config: HdsConfig = { ...DEFAULT_HDS_CONFIG };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof HdsConfig, unknown]>) {
    if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value;
  }
  validateHdsConfig(config);
  // A named variant supplies its template; a template of no named variant is `custom`.
  const named = PLAN_PROMPT_VARIANTS[config.promptVariant as keyof typeof PLAN_PROMPT_VARIANTS] as string | undefined;
  if (overrides.planPromptTemplate === undefined && named !== undefined) config.planPromptTemplate = named;
  const variant = Object.entries(PLAN_PROMPT_VARIANTS).find(([, template]) => template === config.planPromptTemplate)?.[0];
  if (config.promptVariant !== 'custom' || variant) config.promptVariant = (variant ?? 'custom') as PlanPromptVariant;
  validateHdsConfig(config);
  return config;
}

/** Results requested per query: `max(1, min(topK, kPerQuery))` when topK > 0, else kPerQuery (the reference, docs/decisions.md#hds-reference). */
export function effectiveK(config: Pick<HdsConfig, 'topK' | 'kPerQuery'>): number {
  const topK = config.topK ?? 0;
  return topK > 0 ? Math.max(1, Math.min(topK, config.kPerQuery)) : config.kPerQuery;
}
