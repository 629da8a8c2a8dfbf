import type { FinalAnswerMode } from '../final-answer.ts';
import type { AgentDeps } from '../types.ts';
import { definedOnly, qaPrompt, runBaseline, type BaselineOptions, type BaselineRun } from './baseline-run.ts';

/** Settings of single-shot RAG. */
export interface SingleShotConfig {
  /** Passages retrieved for the question. Default 5. */
  k: number;
  /** How the answer is asked for (H10, H12); default `reference` (the prompt as it is). */
  finalAnswer?: FinalAnswerMode;
}

/** The defaults. */
export const DEFAULT_SINGLE_SHOT_CONFIG: Readonly<SingleShotConfig> = Object.freeze({ k: 5 });

/** A single-shot run; `retrievedIds` are the passages given to the model. */
export type SingleShotRun = BaselineRun<SingleShotConfig, Record<string, never>>;

/** Retrieves `k` passages for the question and asks for the answer in one call. */
export async function runSingleShot(
  question: string,
  config: Partial<SingleShotConfig>,
  deps: AgentDeps,
  options: BaselineOptions = {},
): Promise<SingleShotRun> {
  const cfg: SingleShotConfig = { ...DEFAULT_SINGLE_SHOT_CONFIG, ...definedOnly(config) };
  if (!Number.isInteger(cfg.k) || cfg.k < 1) throw new Error('k must be >= 1');
  return runBaseline('single-shot', question, cfg, {}, deps, options, async (ctx) => {
    const passages = await ctx.search(question, cfg.k);
    const response = await ctx.answer(qaPrompt(question, passages.map((p) => p.text)));
    return { reply: response.content, retrievedIds: passages.map((p) => p.id) };
  });
}
