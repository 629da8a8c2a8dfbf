import { describe, expect, it } from 'vitest';
import type { LlmProvider } from '../llm/index.ts';
import { aggregateBatch, batchKey, budgetSweepVariants, runBatchItems, type BatchItem, type BatchQuestion, type BatchVariant } from './batch.ts';
import { doc, KeyedRetriever, ScriptedLlm } from './test-doubles.ts';

const questions: BatchQuestion[] = [
  { id: 'q1', text: 'Who built it?', answers: ['Ada Lark'], relevance: { d1: 1 } },
  { id: 'q2', text: 'When was it built?', answers: ['1850'], relevance: { d2: 1, d3: 1 } },
];
const variants: BatchVariant[] = [
  { id: 'hds', label: 'HDS', method: 'hds', settings: { hds: { maxTurns: 2 } } },
  { id: 'ss', label: 'Single-shot', method: 'single-shot', settings: { singleShot: { k: 1 } } },
];
const retriever = () =>
  new KeyedRetriever({
    'Who built it?': [doc('d1', 1, 'Ada Lark built it.')],
    'When was it built?': [doc('d2', 1, 'Built in 1850.')],
  });

describe('runBatchItems', () => {
  it('runs every variant on every question, question by question, and scores each run', async () => {
    // Order: q1/hds, q1/ss, q2/hds, q2/ss.
    const llm = new ScriptedLlm(['\\boxed{Ada Lark}', 'Lark', '\\boxed{1850}', '1851']);
    const seen: string[] = [];
    const outcome = await runBatchItems(questions, variants, { llm, retriever: retriever() }, { onItem: (i) => void seen.push(`${i.questionId}/${i.variantId}`) });
    expect(outcome.status).toBe('completed');
    expect(seen).toEqual(['q1/hds', 'q1/ss', 'q2/hds', 'q2/ss']);
    expect(outcome.items.map((i) => [i.answer, i.em])).toEqual([
      ['Ada Lark', 1],
      ['Lark', 0],
      ['1850', 1],
      ['1851', 0],
    ]);
    // Single-shot on q2 retrieved d2 of the gold {d2, d3}: recall 1/2. HDS answered at once: nothing retrieved.
    expect(outcome.items[3]!.evidenceRecall).toBe(0.5);
    expect(outcome.items[2]!.evidenceRecall).toBe(0);
    const ss = aggregateBatch(outcome.items, 'ss');
    // F1: "lark" vs "ada lark" = 2·1·0.5/1.5 = 2/3; "1851" vs "1850" = 0. Mean 1/3.
    expect(ss).toMatchObject({ variantId: 'ss', questions: 2, failed: 0, em: 0, turns: 1, searchCalls: 1, tokens: 5 });
    expect(ss.f1).toBeCloseTo(1 / 3, 10);
    expect(ss.evidenceRecall).toBe(0.75); // (1 + 0.5) / 2
    expect(aggregateBatch(outcome.items, 'hds')).toMatchObject({ em: 1, f1: 1, evidenceRecall: 0, turns: 1, searchCalls: 0 });
  });

  it('stops at once when cancelled, keeps the finished items, and a resume runs only the rest', async () => {
    const controller = new AbortController();
    const first = new ScriptedLlm(['\\boxed{Ada Lark}', { content: 'slow', pieceChars: 1, pieceDelayMs: 50 }]);
    const saved: BatchItem[] = [];
    const outcome = await runBatchItems(questions, variants, { llm: first, retriever: retriever() }, {
      signal: controller.signal,
      onItem: (item) => {
        saved.push(item);
      },
      onProgress: (p) => {
        if (p.done === 1) setTimeout(() => controller.abort(), 60);
      },
    });
    expect(outcome.status).toBe('cancelled');
    expect(outcome.items.map((i) => batchKey(i.questionId, i.variantId))).toEqual([batchKey('q1', 'hds')]);
    expect(saved).toHaveLength(1);

    const second = new ScriptedLlm(['Ada Lark', '\\boxed{1850}', '1850']);
    const progress: Array<[number, number]> = [];
    const resumed = await runBatchItems(questions, variants, { llm: second, retriever: retriever() }, {
      done: saved,
      onProgress: (p) => progress.push([p.done, p.total]),
    });
    expect(resumed.status).toBe('completed');
    expect(second.prompts).toHaveLength(3); // q1/hds was not asked again
    expect(resumed.items.map((i) => `${i.questionId}/${i.variantId}`)).toEqual(['q1/hds', 'q1/ss', 'q2/hds', 'q2/ss']);
    expect(progress).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it('records failed runs, runs them again on resume, and stops after three failures in a row', async () => {
    const down: LlmProvider = {
      describe: () => ({ provider: 'x', baseUrl: '', model: 'm' }),
      complete: async () => {
        throw new Error('connection refused');
      },
    };
    const outcome = await runBatchItems(questions, variants, { llm: down, retriever: retriever() });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('Stopped after 3 failed runs in a row; the last: connection refused');
    expect(outcome.items.map((i) => i.status)).toEqual(['failed', 'failed', 'failed']);
    expect(aggregateBatch(outcome.items, 'hds')).toMatchObject({ questions: 2, failed: 2, em: 0, f1: 0 });

    const llm = new ScriptedLlm(['\\boxed{Ada Lark}', 'Ada Lark', '\\boxed{1850}', '1850']);
    const resumed = await runBatchItems(questions, variants, { llm, retriever: retriever() }, { done: outcome.items });
    expect(resumed.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });

  it('rejects invalid settings instead of failing every question', async () => {
    const bad: BatchVariant[] = [{ id: 'x', label: 'x', method: 'hds', settings: { hds: { maxTurns: 0 } } }];
    await expect(runBatchItems(questions, bad, { llm: new ScriptedLlm([]), retriever: retriever() })).rejects.toThrow('max_turns must be >= 1');
  });
});

describe('budgetSweepVariants', () => {
  it('scores boxed answers of the final prompt (H8): EM reads right at every budget', async () => {
    const sweep = budgetSweepVariants('maxSearchCalls', [1, 2], { maxTurns: 3 });
    // Each run: one search turn per call of budget, then the final prompt answers boxed.
    const llm = new ScriptedLlm([
      `<|begin search queries|>a<|end search queries|>`,
      '\\boxed{Ada Lark}',
      `<|begin search queries|>a<|end search queries|>`,
      `<|begin search queries|>b<|end search queries|>`,
      'So: \\boxed{Ada Lark}',
    ]);
    const outcome = await runBatchItems([questions[0]!], sweep, { llm, retriever: retriever() });
    expect(outcome.items.map((i) => [i.variantId, i.answer, i.em, i.f1])).toEqual([
      [sweep[0]!.id, 'Ada Lark', 1, 1],
      [sweep[1]!.id, 'Ada Lark', 1, 1],
    ]);
    for (const v of sweep) expect(aggregateBatch(outcome.items, v.id).em).toBe(1);
  });

  it('makes one HDS variant per distinct value, in increasing order', () => {
    const sweep = budgetSweepVariants('maxSearchCalls', [4, 1, 4, 2], { maxTurns: 5 });
    expect(sweep.map((v) => v.label)).toEqual(['HDS max_search_calls=1', 'HDS max_search_calls=2', 'HDS max_search_calls=4']);
    expect(sweep[2]).toMatchObject({ method: 'hds', settings: { hds: { maxTurns: 5, maxSearchCalls: 4 } }, sweep: { param: 'maxSearchCalls', value: 4 } });
    expect(() => budgetSweepVariants('maxTurns', [2, 0], {})).toThrow('max_turns values must be whole numbers ≥ 1, got 0');
    expect(() => budgetSweepVariants('maxTurns', [], {})).toThrow('Give at least one max_turns value');
  });
});
