import { describe, expect, it } from 'vitest';
import { runSingleShot } from './baselines/single-shot.ts';
import { goldDocumentIds, scoreAgentRun } from './question-metrics.ts';
import { runHds } from './run-hds.ts';
import { doc, KeyedRetriever, ScriptedLlm } from './test-doubles.ts';

const block = (q: string) => `<|begin search queries|>${q}<|end search queries|>`;

describe('scoreAgentRun', () => {
  it('scores an HDS run: EM, token F1, evidence recall, turns, search calls, tokens', async () => {
    const llm = new ScriptedLlm([block('a; b'), '\\boxed{Fennick}']);
    const retriever = new KeyedRetriever({ a: [doc('m1', 3, 'x'), doc('m9', 2, 'y')], b: [doc('m3', 1, 'z')] });
    const run = await runHds('who?', {}, { llm, retriever });
    const metrics = scoreAgentRun(run, { answers: ['Margery Fennick'], relevance: { m1: 1, m2: 1, m3: 0 } });
    // "fennick" against "margery fennick": precision 1, recall 1/2, F1 = 2·1·0.5 / 1.5 = 2/3.
    expect(metrics.em).toBe(0);
    expect(metrics.f1).toBeCloseTo(2 / 3, 10);
    // Gold documents m1 and m2 (m3 is judged 0); only m1 was retrieved.
    expect(metrics.evidenceRecall).toBe(0.5);
    expect(metrics.turns).toBe(2);
    expect(metrics.searchCalls).toBe(2);
    expect(metrics.tokens).toEqual({ promptTokens: 4, completionTokens: 6, totalTokens: 10 }); // 2 calls × {2, 3, 5}
    expect(metrics.latencyMs).toBe(run.durationMs);
  });

  it('counts the fallback call as a turn, and has no answer scores without gold', async () => {
    const llm = new ScriptedLlm([block('a'), 'Paris']);
    const run = await runHds('q', { maxTurns: 1 }, { llm, retriever: new KeyedRetriever({ a: [doc('d', 1, 't')] }) });
    expect(run.terminatedBy).toBe('max_turns_fallback');
    const metrics = scoreAgentRun(run);
    expect(metrics).toMatchObject({ em: null, f1: null, evidenceRecall: null, turns: 2, searchCalls: 1 });
  });

  it('scores a baseline run by its LLM calls and retrievals', async () => {
    const llm = new ScriptedLlm(['the answer is Margery Fennick.']);
    const run = await runSingleShot('q', { k: 2 }, { llm, retriever: new KeyedRetriever({ q: [doc('m2', 1, 't'), doc('m5', 0.5, 'u')] }) });
    const metrics = scoreAgentRun(run, { answers: ['Margery Fennick'], relevance: { m1: 1, m2: 2 } });
    // H12: the unmarked reply is scored on the span "the answer is …" names; strictly (marked answers only) it scores 0.
    expect(metrics).toMatchObject({ em: 1, f1: 1, strictEm: 0, strictF1: 0, answerSource: 'extracted', scoredAnswer: 'Margery Fennick', evidenceRecall: 0.5, turns: 1, searchCalls: 1 });
  });

  it('lists gold documents as the ids judged above 0', () => {
    expect(goldDocumentIds({ z: 1, a: 2, n: 0, m: -1 })).toEqual(['a', 'z']);
    expect(goldDocumentIds(undefined)).toEqual([]);
  });
});
