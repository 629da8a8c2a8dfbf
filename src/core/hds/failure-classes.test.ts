import { describe, expect, it } from 'vitest';
import { runSingleShot } from './baselines/single-shot.ts';
import { failureClassesOf } from './failure-classes.ts';
import { protocolBreakage } from './protocol-breakage.ts';
import { runHds } from './run-hds.ts';
import { doc, KeyedRetriever, ScriptedLlm } from './test-doubles.ts';

const B = '<|begin search queries|>';
const E = '<|end search queries|>';
const R = '<|begin search results|>';
const retriever = () => new KeyedRetriever({}, [doc('d1', 1, 'a passage')]);

describe('failureClassesOf', () => {
  it('names what went wrong in an HDS run: max_tokens, invented results, a repeated block, an unmarked answer', async () => {
    const llm = new ScriptedLlm([{ content: `${B}alpha${E}\n${R}\nmade up`, finishReason: 'length' }, `${B}alpha${E}`, 'Paris is the answer here I think']);
    const run = await runHds('q', { planStop: 'none', maxTurns: 2 }, { llm, retriever: retriever() });
    expect(failureClassesOf(run)).toEqual(['cut-by-max-tokens', 'invented-results', 'repeated-block', 'unmarked-answer']);
  });

  it('is empty for a clean run with a marked answer, and names an echoed prompt and an empty answer', async () => {
    const clean = await runHds('q', {}, { llm: new ScriptedLlm([`${B}alpha${E}`, '\\boxed{Paris}']), retriever: retriever() });
    expect(failureClassesOf(clean)).toEqual([]);
    const echo = await runHds('q', { maxTurns: 1 }, { llm: new ScriptedLlm(['answers questions with the help of a search tool']), retriever: retriever() });
    expect(failureClassesOf(echo)).toEqual(['echoed-prompt', 'unmarked-answer']);
    const empty = await runSingleShot('q', {}, { llm: new ScriptedLlm(['\\boxed{}']), retriever: retriever() });
    expect(failureClassesOf(empty)).toEqual(['no-answer']);
  });

  it('names a reply the plan guard ended, which then counts in the protocol breakage', async () => {
    const loop = `${B}alpha; ${'beta; '.repeat(40)}`;
    const run = await runHds('q', { planGuard: 'loops', maxTurns: 2 }, { llm: new ScriptedLlm([loop, '\\boxed{Paris}']), retriever: retriever() });
    expect(run.turns[0].llm.endedBy).toBe('repetition');
    expect(failureClassesOf(run)).toEqual(['looped']);
    expect(protocolBreakage([run])).toMatchObject({ turns: 2, cutByGuard: 1, cutByMaxTokens: 0 });
  });
});
