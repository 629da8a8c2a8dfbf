import { describe, expect, it } from 'vitest';
import { doc, KeyedRetriever, ScriptedLlm } from '../test-doubles.ts';
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
