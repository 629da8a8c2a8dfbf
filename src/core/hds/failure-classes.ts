import type { AgentRun } from './agent-run.ts';
import { answerEchoesPrompt } from './prompt-echo.ts';
import { scoredAnswerOf } from './question-metrics.ts';

/** The ways a run can go wrong that a batch counts and filters by. */
export type FailureClass = 'cut-by-max-tokens' | 'looped' | 'invented-results' | 'repeated-block' | 'echoed-prompt' | 'unmarked-answer' | 'no-answer';

/** Every class, in the order a batch lists them, with its label. */
export const FAILURE_CLASSES: ReadonlyArray<{ id: FailureClass; label: string; title: string }> = [
  { id: 'cut-by-max-tokens', label: 'cut by max_tokens', title: 'a reply ran into the completion-token limit' },
  { id: 'looped', label: 'looped', title: 'the plan guard ended a reply that repeated itself or misspelled its end marker' },
  { id: 'invented-results', label: 'invented results', title: 'the model began writing search results itself' },
  { id: 'repeated-block', label: 'repeated block', title: 'a turn only re-issued queries that had already run' },
  { id: 'echoed-prompt', label: 'echoed prompt', title: 'the answer is a piece of the prompt or the system message' },
  { id: 'unmarked-answer', label: 'unmarked answer', title: 'no \\boxed{} or <answer>: the scored answer was extracted from the reply (H12)' },
  { id: 'no-answer', label: 'no answer', title: 'the run ended with an empty answer' },
];

/** The failure classes of one run (HDS or baseline). */
export function failureClassesOf(run: AgentRun): FailureClass[] {
  const classes = new Set<FailureClass>();
  const calls = run.kind === 'hds' ? [...run.turns.map((t) => t.llm), ...(run.fallback ? [run.fallback] : [])] : run.llmCalls;
  if (calls.some((c) => c.finishReason === 'length')) classes.add('cut-by-max-tokens');
  if (run.kind === 'hds') {
    if (run.turns.some((t) => t.llm.guard)) classes.add('looped');
    if (run.turns.some((t) => t.inventedResults)) classes.add('invented-results');
    if (run.turns.some((t) => t.onlyRepeats)) classes.add('repeated-block');
    if (answerEchoesPrompt(run)) classes.add('echoed-prompt');
  }
  const scored = scoredAnswerOf(run);
  if (scored.source === 'extracted') classes.add('unmarked-answer');
  if (scored.source === 'empty') classes.add('no-answer');
  return FAILURE_CLASSES.map((c) => c.id).filter((id) => classes.has(id));
}
