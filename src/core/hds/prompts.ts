import { formatTemplate } from './template.ts';

/**
 * The plan prompt (reference §1.2). Placeholders: {query} {turn} {max_turns} {remaining_search_calls}
 * {interaction_log}; `\\boxed{{...}}` renders as `\boxed{...}`.
 */
export const DEFAULT_PLAN_PROMPT = [
  'You are a Hybrid Deep Searcher agent that answers questions with the help of a search tool.',
  'Combine parallel exploration with sequential reasoning. Each turn, take exactly one of two actions:',
  '(a) think, then write the searches to run in parallel between <|begin search queries|> and <|end search queries|>, separated by semicolons or newlines; or',
  '(b) finish by writing the final answer inside \\boxed{{...}}.',
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
].join('\n');

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
