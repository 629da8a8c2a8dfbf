import { describe, expect, it } from 'vitest';
import { fuseRrf } from './rrf.ts';
import type { ScoredDoc } from '../ranking/index.ts';

const ranked = (...ids: string[]): ScoredDoc[] => ids.map((id, i) => ({ id, score: 100 - i }));

describe('fuseRrf', () => {
  it('reference worked example: [1,2] vs [2]', () => {
    const k = 60;
    const fetchK = 4;
    const fused = fuseRrf(ranked('1', '2'), ranked('2'), { k, fetchK });
    const doc1 = 1 / (k + 1) + 1 / (k + fetchK + 1);
    const doc2 = 1 / (k + 2) + 1 / (k + 1);
    expect(fused.map((d) => d.id)).toEqual(['2', '1']);
    expect(fused[0].score).toBeCloseTo(doc2, 15);
    expect(fused[1].score).toBeCloseTo(doc1, 15);
  });

  it('uses k = 60 by default', () => {
    const [only] = fuseRrf(ranked('a'), [], { fetchK: 10 });
    expect(only.score).toBeCloseTo(1 / 61 + 1 / 71, 15);
  });

  it('swapped rankings tie for any k and keep list-1 order', () => {
    for (const k of [0, 1, 5, 60, 1000]) {
      const fused = fuseRrf(ranked('1', '2'), ranked('2', '1'), { k, fetchK: 2 });
      expect(fused.map((d) => d.id)).toEqual(['1', '2']);
      expect(fused[0].score).toBe(fused[1].score);
      expect(fused[0].score).toBeCloseTo(1 / (k + 1) + 1 / (k + 2), 15);
    }
  });

  it('the missing-list term uses the requested fetchK, not the list length', () => {
    const a = fuseRrf(ranked('x'), [], { k: 10, fetchK: 1 })[0].score;
    const b = fuseRrf(ranked('x'), [], { k: 10, fetchK: 100 })[0].score;
    expect(a).toBeCloseTo(1 / 11 + 1 / 12, 15);
    expect(b).toBeCloseTo(1 / 11 + 1 / 111, 15);
  });

  it('a doc listed twice in one list gets both contributions', () => {
    const [a] = fuseRrf(ranked('a', 'a'), [], { k: 60, fetchK: 2 });
    expect(a.score).toBeCloseTo(1 / 61 + 1 / 62 + 1 / 63, 15);
  });

  it('ties keep insertion order: list-1 docs, then docs new in list 2', () => {
    // a and b both score 1/61 + 1/63; c (in both lists) scores 2/62, slightly lower.
    const fused = fuseRrf(ranked('a', 'c'), ranked('b', 'c'), { k: 60, fetchK: 2 });
    expect(fused.map((d) => d.id)).toEqual(['a', 'b', 'c']);
    expect(fused[0].score).toBe(fused[1].score);
    expect(fused[2].score).toBeCloseTo(2 / 62, 15);
  });

  it('truncates to topK and handles empty inputs', () => {
    expect(fuseRrf(ranked('a', 'b', 'c'), ranked('d'), { fetchK: 3, topK: 2 }).map((d) => d.id)).toEqual(['a', 'd']);
    expect(fuseRrf([], [], { fetchK: 3 })).toEqual([]);
    expect(fuseRrf(ranked('a'), [], { fetchK: 3, topK: 0 })).toEqual([]);
  });

  it('rejects a negative k or fetchK', () => {
    expect(() => fuseRrf([], [], { k: -1, fetchK: 1 })).toThrow(/rrf k/);
    expect(() => fuseRrf([], [], { fetchK: -1 })).toThrow(/fetchK/);
  });
});
