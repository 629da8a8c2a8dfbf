import { describe, expect, it } from 'vitest';
import { doc, KeyedRetriever, ScriptedLlm } from '../test-doubles.ts';
import { DEFAULT_IRCOT_CONFIG, firstSentence, runIrcot } from './ircot.ts';

describe('firstSentence (the reference, docs/decisions.md#agents-and-baselines)', () => {
  it('tries ". " then "! " then "? " in that order, not by position', () => {
    expect(firstSentence('  What? Yes. No  ')).toBe('What? Yes.');
    expect(firstSentence('Wow! Really? ok')).toBe('Wow!');
    expect(firstSentence('Who? Him')).toBe('Who?');
    expect(firstSentence(' no delimiter. ')).toBe('no delimiter.');
  });
});

describe('IRCoT', () => {
  it('has the reference defaults', () => {
    expect(DEFAULT_IRCOT_CONFIG).toEqual({ kPerStep: 4, maxSteps: 8, paragraphBudget: 15, stopSequence: 'answer is:' });
  });

  it('retrieves with each first sentence, evicts the oldest paragraphs, stops at the stop sequence', async () => {
    const llm = new ScriptedLlm([
      'Theia hit Earth. More detail here.',
      'Debris formed the Moon! Then more.',
      'So The Answer Is: a giant impact.',
      'A giant impact',
    ]);
    const retriever = new KeyedRetriever({
      'How did the Moon form?': [doc('p1', 1, 'one'), doc('p2', 1, 'two')],
      'Theia hit Earth.': [doc('p2', 1, 'two'), doc('p3', 1, 'three')],
      'Debris formed the Moon!': [doc('p4', 1, 'four')],
    });
    const run = await runIrcot('How did the Moon form?', { kPerStep: 2, maxSteps: 5, paragraphBudget: 3 }, { llm, retriever });
    expect(retriever.calls).toEqual([
      ['How did the Moon form?', 2],
      ['Theia hit Earth.', 2],
      ['Debris formed the Moon!', 2],
    ]);
    expect(run.details).toEqual({
      cotSentences: ['Theia hit Earth.', 'Debris formed the Moon!', 'So The Answer Is: a giant impact.'],
      steps: 3,
      allRetrievedIds: ['p1', 'p2', 'p3', 'p4'],
    });
    expect(run.retrievedIds).toEqual(['p2', 'p3', 'p4']);
    expect(run.answer).toBe('A giant impact');
    expect(llm.prompts[1]).toContain('[1] one\n\n[2] two\n\n[3] three');
    expect(llm.prompts[1]).toContain('Thought 1: Theia hit Earth.');
    expect(llm.prompts[0]).toContain('(no previous thoughts)');
    expect(llm.prompts[3]).toContain('[1] two\n\n[2] three\n\n[3] four');
    expect(run.tokenUsage.totalTokens).toBe(20);
    expect(run.llmCalls).toHaveLength(4);
  });

  it('stops after max_steps without the stop sequence', async () => {
    const llm = new ScriptedLlm(['step one. x', 'step two. y', 'final']);
    const retriever = new KeyedRetriever({});
    const run = await runIrcot('q', { maxSteps: 2 }, { llm, retriever });
    expect(run.details.steps).toBe(2);
    expect(retriever.calls.map((c) => c[0])).toEqual(['q', 'step one.', 'step two.']);
    expect(run.answer).toBe('final');
  });

  it('reads thoughts outside reasoning (H2)', async () => {
    const llm = new ScriptedLlm(['<think>the answer is: hidden</think>Look up Theia. ok', 'The answer is: x', 'x']);
    const run = await runIrcot('q', { maxSteps: 3 }, { llm, retriever: new KeyedRetriever({}) });
    expect(run.details.cotSentences).toEqual(['Look up Theia.', 'The answer is: x']);
  });

  it('validates its settings', async () => {
    await expect(runIrcot('q', { paragraphBudget: 0 }, { llm: new ScriptedLlm([]), retriever: new KeyedRetriever({}) })).rejects.toThrow(
      'paragraph_budget must be >= 1',
    );
  });
});
