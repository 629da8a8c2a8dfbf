import { describe, expect, it } from 'vitest';
import { doc, KeyedRetriever, ScriptedLlm } from '../test-doubles.ts';
import { runDecomposition } from './decomposition.ts';
import { runIrcot } from './ircot.ts';
import { runSingleShot } from './single-shot.ts';

describe('single-shot RAG', () => {
  it('retrieves k passages for the question and answers in one call', async () => {
    const llm = new ScriptedLlm(['<think>easy</think> Paris']);
    const retriever = new KeyedRetriever({ 'Capital of France?': [doc('a', 2, 'Paris is the capital.'), doc('b', 1, 'France.')] });
    const run = await runSingleShot('Capital of France?', { k: 2 }, { llm, retriever });
    expect(retriever.calls).toEqual([['Capital of France?', 2]]);
    expect(llm.prompts[0]).toContain('[1] Paris is the capital.\n\n[2] France.');
    expect(llm.prompts[0]).toContain('Question: Capital of France?');
    expect(run).toMatchObject({
      kind: 'single-shot',
      status: 'completed',
      answer: 'Paris',
      retrievedIds: ['a', 'b'],
      config: { k: 2 },
      tokenUsage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 },
    });
    expect(run.llmCalls).toHaveLength(1);
    expect(run.retrievals).toHaveLength(1);
  });

  it('defaults to k = 5 and validates k', async () => {
    const retriever = new KeyedRetriever({});
    const run = await runSingleShot('q', {}, { llm: new ScriptedLlm(['a']), retriever });
    expect(retriever.calls).toEqual([['q', 5]]);
    expect(run.answer).toBe('a');
    await expect(runSingleShot('q', { k: 0 }, { llm: new ScriptedLlm([]), retriever })).rejects.toThrow('k must be >= 1');
  });
});

describe('baseline final answers (H8)', () => {
  it('reads \\boxed{}, <answer> and plain replies like the final prompt, and keeps the raw reply', async () => {
    const cases: Array<[string, string, string]> = [
      ['<think>maybe \\boxed{Rome}</think>It is \\boxed{Battle of Guam}.', 'Battle of Guam', 'boxed'],
      ['The answer: <answer> Paris </answer>', 'Paris', 'answer-tag'],
      ['  Saltmere \n', 'Saltmere', 'none'],
    ];
    for (const [reply, answer, marker] of cases) {
      const run = await runSingleShot('q', { k: 1 }, { llm: new ScriptedLlm([reply]), retriever: new KeyedRetriever({}) });
      expect(run.answer).toBe(answer);
      expect(run.finalAnswer).toEqual({ raw: reply, marker });
    }
  });

  it('IRCoT and decomposition answers go through the same extraction', async () => {
    const ircot = await runIrcot('q', { maxSteps: 1 }, { llm: new ScriptedLlm(['The answer is: Guam.', '\\boxed{Battle of Guam}']), retriever: new KeyedRetriever({}) });
    expect(ircot.answer).toBe('Battle of Guam');
    expect(ircot.finalAnswer).toEqual({ raw: '\\boxed{Battle of Guam}', marker: 'boxed' });
    const decomposition = await runDecomposition('q', {}, { llm: new ScriptedLlm(['q', '<answer>Guam</answer>']), retriever: new KeyedRetriever({}) });
    expect(decomposition.answer).toBe('Guam');
    expect(decomposition.finalAnswer?.marker).toBe('answer-tag');
  });
});
