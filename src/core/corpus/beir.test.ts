import { describe, expect, it } from 'vitest';
import { findBeirRoot, planBeir } from './beir.ts';
import { memorySource } from './fixtures/memory-source.ts';

const src = (path: string) => memorySource(path.slice(path.lastIndexOf('/') + 1), '', { path });

describe('findBeirRoot', () => {
  it('finds the shallowest folder holding corpus.jsonl', () => {
    expect(findBeirRoot(['a/b/corpus.jsonl', 'a/corpus.jsonl'])).toBe('a');
    expect(findBeirRoot(['corpus.jsonl'])).toBe('');
    expect(findBeirRoot(['docs.jsonl', 'my_corpus.jsonl'])).toBeNull();
  });
});

describe('planBeir', () => {
  it('reads only the chosen folder and names the other corpus in its issue', () => {
    const plan = planBeir(['x/corpus.jsonl', 'x/queries.jsonl', 'x/y/corpus.jsonl', 'x/qrels/test.txt', 'x/qrels/old/test.tsv'].map(src), 'x');
    expect(plan.map((f) => [f.path, f.kind])).toEqual([
      ['x/corpus.jsonl', 'corpus'],
      ['x/queries.jsonl', 'queries'],
      ['x/qrels/test.txt', 'qrels'],
      ['x/y/corpus.jsonl', 'skipped'],
      ['x/qrels/old/test.tsv', 'skipped'],
    ]);
    expect(plan[3].reason).toContain('one BEIR folder is loaded at a time');
  });

  it('skips qrels with a reason when there is no queries.jsonl', () => {
    const plan = planBeir(['corpus.jsonl', 'qrels/test.tsv'].map(src), '');
    expect(plan[1]).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('no queries.jsonl') });
  });
});
