import { normalizeAnswer } from '../eval/index.ts';
import type { HdsRun } from './types.ts';

// A template's own words: its text with the placeholders (the question, the log) left out.
const PLACEHOLDER = /\{[a-z_]+\}/g;

/**
 * True when an HDS run's answer is a piece of its own instructions: the plan or final template's fixed text, or the
 * system message (small models answer with the system message's example sentence). Answers under three words are
 * never counted: a name can well occur in an example.
 */
export function answerEchoesPrompt(run: HdsRun): boolean {
  const answer = normalizeAnswer(run.answer);
  if (answer.split(' ').filter(Boolean).length < 3) return false;
  const sources = [
    run.config.planPromptTemplate.replace(PLACEHOLDER, ' '),
    run.config.finalPromptTemplate.replace(PLACEHOLDER, ' '),
    ...run.turns.map((t) => t.llm.systemPrompt ?? ''),
    run.fallback?.systemPrompt ?? '',
  ];
  return sources.some((text) => text !== '' && normalizeAnswer(text).includes(answer));
}
