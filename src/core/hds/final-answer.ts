// H10: how the final prompt asks for the answer.
import type { ChatMessage } from '../llm/index.ts';
import { extractFinalAnswer, type FinalAnswer } from './parse-action.ts';

/**
 * How the final call asks for the answer (H10):
 * - `reference`: the final template as it is (the reference's behaviour);
 * - `boxed`: the same template with {@link BOXED_ANSWER_INSTRUCTION} (a concise answer inside `\boxed{}`);
 * - `boxed-prefix`: as `boxed`, and the assistant turn is pre-filled with {@link FORCED_ANSWER_PREFIX} (the HDS
 *   authors' forced prefix), so the model writes only the answer and its closing brace. Needs a provider that
 *   continues an assistant message; elsewhere `boxed` is applied, and the call records that.
 */
export type FinalAnswerMode = 'reference' | 'boxed' | 'boxed-prefix';

/** The modes, for settings lists. */
export const FINAL_ANSWER_MODES: readonly FinalAnswerMode[] = ['reference', 'boxed', 'boxed-prefix'];

/**
 * The concise-answer demand every compared method's final instruction makes (H12), with the `\boxed{}` format the
 * HDS authors ask for.
 */
export const BOXED_ANSWER_INSTRUCTION =
  'Reply with a concise answer only (a name, a number, a date or a few words, not a sentence), in the format \\boxed{YOUR_ANSWER}.';

/** The HDS authors' forced answer prefix: reasoning closed, a heading, and an open `\boxed{`. */
export const FORCED_ANSWER_PREFIX = '\n</think>\n\n**Final Answer:**\n\\boxed{';

/**
 * The prompt with the concise-answer instruction: put before the prompt's last line when that line is a label
 * ending in `:` (the reference's "Final answer:", the baselines' "Answer:"), else appended on its own line.
 */
export function withAnswerInstruction(prompt: string): string {
  const lines = prompt.trimEnd().split('\n');
  const last = lines.at(-1) ?? '';
  if (lines.length > 1 && /^[^\n]{1,40}:\s*$/.test(last)) {
    return [...lines.slice(0, -1), BOXED_ANSWER_INSTRUCTION, '', last].join('\n');
  }
  return `${prompt.trimEnd()}\n\n${BOXED_ANSWER_INSTRUCTION}`;
}

/** The messages of a final call and the mode really applied. */
export interface FinalCallPlan {
  /** Exactly what is sent. */
  messages: ChatMessage[];
  /** The mode applied (`boxed` when `boxed-prefix` was asked of a provider that cannot continue a message). */
  applied: FinalAnswerMode;
  /** The assistant pre-fill, when sent: the reply continues it. */
  prefix?: string;
}

/** The messages of a final-answer call: one user message (no system message, H10), plus the pre-fill when applied. */
export function finalCallPlan(prompt: string, mode: FinalAnswerMode, canContinueAssistant: boolean): FinalCallPlan {
  if (mode === 'reference') return { messages: [{ role: 'user', content: prompt }], applied: 'reference' };
  const user: ChatMessage = { role: 'user', content: withAnswerInstruction(prompt) };
  if (mode === 'boxed-prefix' && canContinueAssistant) {
    return { messages: [user, { role: 'assistant', content: FORCED_ANSWER_PREFIX }], applied: 'boxed-prefix', prefix: FORCED_ANSWER_PREFIX };
  }
  return { messages: [user], applied: 'boxed' };
}

/** Reads a final reply (H8): a pre-filled call's reply is read after its prefix, so `Paris}` gives `Paris`. */
export function readFinalReply(reply: string, prefix?: string): FinalAnswer {
  return extractFinalAnswer(prefix ? `${prefix}${reply}` : reply);
}
