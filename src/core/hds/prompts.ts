import { formatTemplate } from './template.ts';

/** The end of every plan prompt: the question, the turn and budget, the log, and the call to act. */
const PLAN_PROMPT_STATE = [
  '',
  'Question:',
  '{query}',
  '',
  'Turn: {turn}/{max_turns}',
  'Remaining search calls: {remaining_search_calls}',
  'Interaction log:',
  '{interaction_log}',
  '',
  'Next action:',
];

/**
 * The plan prompt (the reference, docs/decisions.md#hds-reference). Placeholders: {query} {turn} {max_turns} {remaining_search_calls}
 * {interaction_log}; `\\boxed{{...}}` renders as `\boxed{...}`.
 */
export const DEFAULT_PLAN_PROMPT = [
  'You are a Hybrid Deep Searcher agent that answers questions with the help of a search tool.',
  'Combine parallel exploration with sequential reasoning. Each turn, take exactly one of two actions:',
  '(a) think, then write the searches to run in parallel between <|begin search queries|> and <|end search queries|>, separated by semicolons or newlines; or',
  '(b) finish by writing the final answer inside \\boxed{{...}}.',
  ...PLAN_PROMPT_STATE,
].join('\n');

/**
 * The project's own plan prompt (`dsw-1`), written from what small models did with the reference one: a "Reasoning:"
 * line to fill instead of a copyable "(a) think", a rule against re-issuing logged queries and against writing results,
 * and one made-up two-hop example (its people and places are invented, so it cannot leak an answer).
 */
export const DSW_PLAN_PROMPT = [
  'You are a Hybrid Deep Searcher agent that answers questions with the help of a search tool.',
  'Combine parallel exploration with sequential reasoning. Each turn, take exactly one of two actions:',
  '(a) search: write the searches to run in parallel between <|begin search queries|> and <|end search queries|>, one per line; or',
  '(b) answer: write the final answer, as short as possible (a name, a number, a date or a few words), inside \\boxed{{}}.',
  'Begin your reply with one line "Reasoning: " that says what the log already shows and what is still missing.',
  'Never search again for a query that is in the interaction log: its results are there. Never write search results yourself.',
  '',
  'Example (another question):',
  'Question: In which river valley was the founder of the Vellmar Glassworks born?',
  'Reasoning: I need the founder of the Vellmar Glassworks first, then where that person was born.',
  '<|begin search queries|>',
  'Vellmar Glassworks founder',
  'Vellmar Glassworks history',
  '<|end search queries|>',
  '(the results come back in the interaction log; next turn)',
  'Reasoning: The log says Ida Korsholm founded it; I still need her birthplace.',
  '<|begin search queries|>',
  'Ida Korsholm birthplace',
  '<|end search queries|>',
  '(next turn)',
  'Reasoning: The log says Ida Korsholm was born in the Tarn valley.',
  '\\boxed{{Tarn valley}}',
  ...PLAN_PROMPT_STATE,
].join('\n');

/** The named plan prompts (`HdsConfig.promptVariant`). */
export const PLAN_PROMPT_VARIANTS = Object.freeze({ reference: DEFAULT_PLAN_PROMPT, 'dsw-1': DSW_PLAN_PROMPT });

/** A named plan prompt; `custom` is a template typed by the user. */
export type PlanPromptVariant = keyof typeof PLAN_PROMPT_VARIANTS | 'custom';

/** The final prompt used when the loop ends without an answer. Placeholders: {query} {interaction_log}. */
export const DEFAULT_FINAL_PROMPT = [
  'Answer the question using the Hybrid Deep Searcher rolling interaction log below.',
  '',
  'Question:',
  '{query}',
  '',
  'Interaction log:',
  '{interaction_log}',
  '',
  'Final answer:',
].join('\n');

/** The log as the prompts show it: entries joined by a newline, or `(none)` when empty. */
export function renderInteractionLog(log: readonly string[]): string {
  return log.length === 0 ? '(none)' : log.join('\n');
}

/** Fills the plan prompt for one turn. */
export function renderPlanPrompt(
  template: string,
  values: { query: string; turn: number; maxTurns: number; remainingSearchCalls: number; log: readonly string[] },
): string {
  return formatTemplate(template, {
    query: values.query,
    turn: values.turn,
    max_turns: values.maxTurns,
    remaining_search_calls: values.remainingSearchCalls,
    interaction_log: renderInteractionLog(values.log),
  });
}

/** Fills the final prompt. */
export function renderFinalPrompt(template: string, values: { query: string; log: readonly string[] }): string {
  return formatTemplate(template, { query: values.query, interaction_log: renderInteractionLog(values.log) });
}
