import type { FinalAnswerMode } from '../final-answer.ts';
import { splitReasoning } from '../parse-action.ts';
import type { AgentDeps } from '../types.ts';
import { definedOnly, formatParagraphs, qaPrompt, runBaseline, type BaselineOptions, type BaselineRun } from './baseline-run.ts';

/** Settings of IRCoT (the reference, docs/decisions.md#agents-and-baselines). */
export interface IrcotConfig {
  /** Passages retrieved per step (and initially). Default 4. */
  kPerStep: number;
  /** Maximum reasoning calls. Default 8. */
  maxSteps: number;
  /** Maximum paragraphs kept; the oldest are dropped first. Default 15. */
  paragraphBudget: number;
  /** Reasoning stops when a response contains this (case-insensitive). Default `answer is:`. */
  stopSequence: string;
  /** How the answer is asked for (H10, H12); default `reference` (the prompt as it is). */
  finalAnswer?: FinalAnswerMode;
}

/** The reference defaults. */
export const DEFAULT_IRCOT_CONFIG: Readonly<IrcotConfig> = Object.freeze({
  kPerStep: 4,
  maxSteps: 8,
  paragraphBudget: 15,
  stopSequence: 'answer is:',
});

/** IRCoT trace. */
export interface IrcotDetails {
  /** The first sentence of every reasoning step. */
  cotSentences: string[];
  /** Reasoning calls made. */
  steps: number;
  /** Every id retrieved, first-seen order (including evicted ones). */
  allRetrievedIds: string[];
}

/** An IRCoT run; `retrievedIds` are the paragraphs kept at the end (reference `context_chunk_ids`). */
export type IrcotRun = BaselineRun<IrcotConfig, IrcotDetails>;

/**
 * The first sentence: the trimmed text cut after the first `". "`, else `"! "`, else `"? "` (delimiters tried in that
 * order, not by position), keeping the punctuation; the whole text when none occurs.
 */
export function firstSentence(text: string): string {
  const trimmed = text.trim();
  for (const delimiter of ['. ', '! ', '? ']) {
    const at = trimmed.indexOf(delimiter);
    if (at >= 0) return trimmed.slice(0, at + 1);
  }
  return trimmed;
}

/** The IRCoT step prompt. */
export function ircotStepPrompt(question: string, paragraphs: readonly string[], thoughts: readonly string[]): string {
  return [
    'Answer the question by reasoning step by step over the paragraphs below.',
    '',
    'Paragraphs:',
    formatParagraphs(paragraphs),
    '',
    `Question: ${question}`,
    '',
    'Previous thoughts:',
    thoughts.length === 0 ? '(no previous thoughts)' : thoughts.map((t, i) => `Thought ${i + 1}: ${t}`).join('\n'),
    '',
    'Write the next reasoning step in one sentence. When you can answer, write "The answer is: <answer>".',
  ].join('\n');
}

/** Interleaves retrieval with chain-of-thought: each step's first sentence is the next query (the reference, docs/decisions.md#agents-and-baselines). */
export async function runIrcot(
  question: string,
  config: Partial<IrcotConfig>,
  deps: AgentDeps,
  options: BaselineOptions = {},
): Promise<IrcotRun> {
  const cfg: IrcotConfig = { ...DEFAULT_IRCOT_CONFIG, ...definedOnly(config) };
  for (const [name, value] of [
    ['k_per_step', cfg.kPerStep],
    ['max_steps', cfg.maxSteps],
    ['paragraph_budget', cfg.paragraphBudget],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be >= 1`);
  }
  const details: IrcotDetails = { cotSentences: [], steps: 0, allRetrievedIds: [] };
  return runBaseline('ircot', question, cfg, details, deps, options, async (ctx) => {
    let ids: string[] = [];
    let texts: string[] = [];
    const add = (passages: { id: string; text: string }[]) => {
      for (const p of passages) {
        if (!details.allRetrievedIds.includes(p.id)) details.allRetrievedIds.push(p.id);
        if (ids.includes(p.id)) continue;
        ids.push(p.id);
        texts.push(p.text);
      }
      if (ids.length > cfg.paragraphBudget) {
        ids = ids.slice(-cfg.paragraphBudget);
        texts = texts.slice(-cfg.paragraphBudget);
      }
    };
    add(await ctx.search(question, cfg.kPerStep));
    const stop = cfg.stopSequence.toLowerCase();
    for (let step = 1; step <= cfg.maxSteps; step++) {
      const response = await ctx.ask(ircotStepPrompt(question, texts, details.cotSentences));
      details.steps = step;
      const visible = splitReasoning(response.content).visibleText;
      const sentence = firstSentence(visible);
      details.cotSentences.push(sentence);
      if (stop !== '' && visible.toLowerCase().includes(stop)) break;
      add(await ctx.search(sentence, cfg.kPerStep));
    }
    const answer = await ctx.answer(qaPrompt(question, texts));
    return { reply: answer.content, retrievedIds: [...ids] };
  });
}
