import type { FinalAnswerMode } from '../final-answer.ts';
import type { AgentDeps } from '../types.ts';
import { definedOnly, qaPrompt, runBaseline, type BaselineOptions, type BaselineRun } from './baseline-run.ts';

/** Settings of the oracle-context bound. */
export interface OracleContextConfig {
  /** How the answer is asked for (H10, H12); default `reference` (the prompt as it is). */
  finalAnswer?: FinalAnswerMode;
}

/** An oracle-context run; `retrievedIds` are the gold passages given to the model. */
export type OracleContextRun = BaselineRun<OracleContextConfig, Record<string, never>>;

/**
 * The reader's upper bound: the question's gold supporting passages (`deps.goldIds`, texts from `deps.getTexts`) are
 * given to the model directly with the single-shot prompt, no retrieval. What a method scores below it is lost to
 * search; what this scores below 1 is lost to reading. Fails when the question has no gold passages.
 */
export async function runOracleContext(question: string, config: Partial<OracleContextConfig>, deps: AgentDeps, options: BaselineOptions = {}): Promise<OracleContextRun> {
  const cfg: OracleContextConfig = { ...definedOnly(config) };
  return runBaseline('oracle-context', question, cfg, {}, deps, options, async (ctx) => {
    const ids = [...(deps.goldIds ?? [])];
    if (ids.length === 0) throw new Error('oracle-context needs the question\'s gold passages (qrels), and this question has none');
    if (!deps.getTexts) throw new Error('oracle-context needs the passage texts (AgentDeps.getTexts)');
    const passages = await ctx.backfill(ids.map((id) => ({ id, score: 1, text: '' })));
    const response = await ctx.answer(qaPrompt(question, passages.map((p) => p.text)));
    return { reply: response.content, retrievedIds: ids };
  });
}
