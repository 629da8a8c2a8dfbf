import { describe, expect, it } from 'vitest';
import { parseMeasure } from './measures.ts';
import { judgeRanking, measureQuery } from './query-measures.ts';

const value = (name: string, ranked: string[], judgements: Record<string, number>): number =>
  measureQuery(parseMeasure(name), judgeRanking(ranked, new Map(Object.entries(judgements))));

// Graded judgements: a=3, b=2, c=1 relevant; n=0 judged not relevant. R = 3, ideal gains [3, 2, 1].
const graded = { a: 3, b: 2, c: 1, n: 0 };
// Ranking: rank1 n (0), rank2 a (3), rank3 u (unjudged), rank4 c (1). b is never retrieved.
const ranked = ['n', 'a', 'u', 'c'];

describe('judgeRanking', () => {
  it('joins relevance, counts relevant documents, sorts the ideal gains', () => {
    expect(judgeRanking(ranked, new Map(Object.entries(graded)))).toEqual({
      relevance: [0, 3, undefined, 1],
      numRelevant: 3,
      idealGains: [3, 2, 1],
    });
  });
});

describe('measureQuery (graded judgements)', () => {
  it('nDCG uses linear gains, log2(rank+1) discount, ideal from all judged relevant documents', () => {
    // DCG@2  = 0/log2(2) + 3/log2(3)                          = 1.8927892607
    // IDCG@2 = 3/log2(2) + 2/log2(3)                          = 3 + 1.2618595071 = 4.2618595071 → 0.4441228664
    expect(value('nDCG@2', ranked, graded)).toBeCloseTo((3 / Math.log2(3)) / (3 + 2 / Math.log2(3)), 9);
    expect(value('nDCG@2', ranked, graded)).toBeCloseTo(0.4441228664, 9);
    // Full ranking: DCG = 3/log2(3) + 1/log2(5) = 1.8927892607 + 0.4306765581 = 2.3234658188
    // IDCG = 3 + 2/log2(3) + 1/log2(4) = 3 + 1.2618595071 + 0.5 = 4.7618595071 → 0.4879324590
    const full = (3 / Math.log2(3) + 1 / Math.log2(5)) / (3 + 2 / Math.log2(3) + 1 / 2);
    expect(value('nDCG', ranked, graded)).toBeCloseTo(full, 9);
    expect(value('nDCG', ranked, graded)).toBeCloseTo(0.4879324590, 9);
    // Cutoff larger than the run and the judgements: same as no cutoff.
    expect(value('nDCG@100', ranked, graded)).toBeCloseTo(full, 9);
    // nDCG@1: DCG = 0 (n is judged 0) → 0.
    expect(value('nDCG@1', ranked, graded)).toBe(0);
  });

  it('a perfect ranking scores 1 on nDCG, AP, RR, Rprec', () => {
    for (const m of ['nDCG@3', 'nDCG', 'AP', 'RR', 'Rprec', 'R@3', 'P@3']) {
      expect(value(m, ['a', 'b', 'c'], graded)).toBeCloseTo(1, 12);
    }
  });

  it('recall, precision, RR, AP, Rprec, Judged by hand', () => {
    // Relevant at ranks 2 (a) and 4 (c); R = 3.
    expect(value('R@1', ranked, graded)).toBe(0);
    expect(value('R@2', ranked, graded)).toBeCloseTo(1 / 3, 12);
    expect(value('R@100', ranked, graded)).toBeCloseTo(2 / 3, 12);
    expect(value('P@2', ranked, graded)).toBeCloseTo(1 / 2, 12);
    expect(value('P@4', ranked, graded)).toBeCloseTo(2 / 4, 12);
    // k is the denominator even beyond the run's 4 documents: 2/10.
    expect(value('P@10', ranked, graded)).toBeCloseTo(0.2, 12);
    expect(value('RR', ranked, graded)).toBeCloseTo(1 / 2, 12);
    expect(value('RR@1', ranked, graded)).toBe(0);
    expect(value('RR@2', ranked, graded)).toBeCloseTo(1 / 2, 12);
    // AP = (1/2 + 2/4) / 3 = 1/3  (b, never retrieved, contributes 0 but counts in R).
    expect(value('AP', ranked, graded)).toBeCloseTo(1 / 3, 12);
    // AP@3 = (1/2) / 3 = 1/6  (map_cut divides by R, not by min(R, k)).
    expect(value('AP@3', ranked, graded)).toBeCloseTo(1 / 6, 12);
    // Rprec: top R=3 = n, a, u → 1 relevant → 1/3.
    expect(value('Rprec', ranked, graded)).toBeCloseTo(1 / 3, 12);
    // Judged@3: n (judged 0) and a judged, u not → 2/3. Judged@10 over min(10, 4) = 4 → 3/4.
    expect(value('Judged@3', ranked, graded)).toBeCloseTo(2 / 3, 12);
    expect(value('Judged@10', ranked, graded)).toBeCloseTo(3 / 4, 12);
  });

  it('relevance <= 0 gives no gain and is not relevant', () => {
    // x=-1 at rank 1, y=1 at rank 2; R = 1 (only y).
    const j = { x: -1, y: 1 };
    // DCG = 0 + 1/log2(3) = 0.6309297536; IDCG = 1.
    expect(value('nDCG@10', ['x', 'y'], j)).toBeCloseTo(1 / Math.log2(3), 12);
    expect(value('RR', ['x', 'y'], j)).toBeCloseTo(0.5, 12);
    expect(value('P@1', ['x', 'y'], j)).toBe(0);
    // x is judged, so Judged counts it.
    expect(value('Judged@2', ['x', 'y'], j)).toBe(1);
  });

  it('an empty ranking scores 0 everywhere', () => {
    for (const m of ['nDCG@10', 'nDCG', 'R@10', 'P@10', 'RR', 'RR@10', 'AP', 'AP@10', 'Rprec', 'Judged@10']) {
      expect(value(m, [], graded)).toBe(0);
    }
  });

  it('Rprec with fewer documents than R divides by R', () => {
    // R = 3, run [a]: 1 relevant in top min(3,1) → 1/3.
    expect(value('Rprec', ['a'], graded)).toBeCloseTo(1 / 3, 12);
  });
});
