import { describe, expect, it } from 'vitest';
import { candidateRanks, firstOccurrenceIndices, topScoredDocs } from './ranking.ts';

describe('topScoredDocs', () => {
  it('sorts by score descending and keeps pool order among ties', () => {
    const pool = ['a', 'b', 'c', 'd', 'e'];
    const scores = [1, 3, 1, 3, 2];
    expect(topScoredDocs(pool, scores, 5).map((d) => d.id)).toEqual(['b', 'd', 'e', 'a', 'c']);
    expect(topScoredDocs(pool, [0, 0, 0, 0, 0], 5).map((d) => d.id)).toEqual(pool);
  });

  it('truncates to topK and returns {id, score}', () => {
    expect(topScoredDocs(['a', 'b', 'c'], [0.1, 0.3, 0.2], 2)).toEqual([
      { id: 'b', score: 0.3 },
      { id: 'c', score: 0.2 },
    ]);
    expect(topScoredDocs(['a'], [1], 0)).toEqual([]);
  });

  it('puts NaN last', () => {
    expect(topScoredDocs(['a', 'b', 'c'], [Number.NaN, -5, Number.NaN], 3).map((d) => d.id)).toEqual(['b', 'a', 'c']);
  });

  it('reports a repeated id once, at its first occurrence', () => {
    const pool = ['a', 'b', 'a', 'c'];
    expect(firstOccurrenceIndices(pool)).toEqual([0, 1, 3]);
    expect(topScoredDocs(pool, [2, 1, 2, 3], 4)).toEqual([
      { id: 'c', score: 3 },
      { id: 'a', score: 2 },
      { id: 'b', score: 1 },
    ]);
  });
});

describe('candidateRanks', () => {
  it('gives 1-based ranks consistent with topScoredDocs', () => {
    expect(candidateRanks(['a', 'b', 'c', 'd'], [1, 3, 1, 2])).toEqual([3, 1, 4, 2]);
    expect(candidateRanks(['a', 'b', 'a', 'c'], [2, 1, 2, 3])).toEqual([2, 3, 2, 1]);
  });
});
