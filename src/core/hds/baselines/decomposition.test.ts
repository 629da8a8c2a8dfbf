import { describe, expect, it } from 'vitest';
import { doc, KeyedRetriever, ScriptedLlm } from '../test-doubles.ts';
import { mergeByMaxScore, parseSubQuestions, runDecomposition } from './decomposition.ts';

describe('parseSubQuestions (the reference, docs/decisions.md#agents-and-baselines)', () => {
  it('reads one sub-question per line and strips one prefix and trailing semicolons', () => {
    expect(parseSubQuestions('1. Who is A?\n- Where is B? ;\nSub-question 3: When was C', 'Q', 5)).toEqual([
      'Who is A?',
      'Where is B?',
      'When was C',
    ]);
  });

  it('splits a single line before inline list markers', () => {
    expect(parseSubQuestions('1. Who is A? 2. Where is B?', 'Q', 5)).toEqual(['Who is A?', 'Where is B?']);
  });

  it('splits a single line after question marks when there are several', () => {
    expect(parseSubQuestions('Who is A? Where is B?', 'Q', 5)).toEqual(['Who is A?', 'Where is B?']);
  });

  it('drops the original question and duplicates (case and spacing ignored) and stops at the maximum', () => {
    expect(parseSubQuestions('how  did the MOON form?\nA?\na?\nB?\nC?', 'How did the Moon form?', 2)).toEqual(['A?', 'B?']);
  });

  it('gives nothing for an empty response', () => {
    expect(parseSubQuestions('  \n ', 'Q', 3)).toEqual([]);
  });
});

describe('mergeByMaxScore', () => {
  it('keeps the best score per id and sorts by score then id', () => {
    const merged = mergeByMaxScore([
      [doc('b', 0.5, 'b1'), doc('a', 0.5, 'a1')],
      [doc('b', 0.9, 'b2'), doc('c', Number.NaN, 'c')],
    ]);
    expect(merged.map((p) => [p.id, p.score, p.text])).toEqual([
      ['b', 0.9, 'b2'],
      ['a', 0.5, 'a1'],
      ['c', 0, 'c'],
    ]);
  });
});

describe('question decomposition', () => {
  it('retrieves for the question and each sub-question, merges, keeps top_k and answers', async () => {
    const llm = new ScriptedLlm(['1. Who is A?\n2. Where is B?', 'The answer']);
    const retriever = new KeyedRetriever({
      Q: [doc('x', 0.3, 'x text')],
      'Who is A?': [doc('y', 0.9, 'y text'), doc('x', 0.5, 'x text')],
      'Where is B?': [doc('z', 0.1, 'z text')],
    });
    const run = await runDecomposition('Q', { topK: 2 }, { llm, retriever });
    expect(retriever.calls).toEqual([
      ['Q', 2],
      ['Who is A?', 2],
      ['Where is B?', 2],
    ]);
    expect(run.details).toEqual({
      rawDecomposition: '1. Who is A?\n2. Where is B?',
      subQuestions: ['Who is A?', 'Where is B?'],
      retrievalQueries: ['Q', 'Who is A?', 'Where is B?'],
      retrievedScores: [0.9, 0.5],
    });
    expect(run.retrievedIds).toEqual(['y', 'x']);
    expect(llm.prompts[0]).toContain('at most 3');
    expect(llm.prompts[1]).toContain('[1] y text\n\n[2] x text');
    expect(run.answer).toBe('The answer');
    expect(run.tokenUsage.totalTokens).toBe(10);
  });
});
