import { describe, expect, it } from 'vitest';
import { mergeTopK, TopKHeap } from './top-k.ts';
import { seededRandom } from '../../test-support/random-vectors.ts';

const bruteForce = (scores: number[], k: number) =>
  scores
    .map((score, row) => ({ score, row }))
    .sort((a, b) => b.score - a.score || a.row - b.row)
    .slice(0, k);

describe('TopKHeap', () => {
  it('equals a full sort by (score desc, row asc), with many ties', () => {
    const random = seededRandom(7);
    for (const n of [0, 1, 5, 50, 500]) {
      // Scores from a small set of values so ties are everywhere.
      const scores = Array.from({ length: n }, () => Math.round(random() * 8) / 8);
      for (const k of [0, 1, 3, 10, 600]) {
        const heap = new TopKHeap(k);
        scores.forEach((s, row) => heap.offer(s, row));
        expect(heap.sorted()).toEqual(bruteForce(scores, k));
      }
    }
  });

  it('reports the entry threshold and ignores NaN', () => {
    const heap = new TopKHeap(2);
    expect(heap.threshold).toBe(-Infinity);
    heap.offer(NaN, 0);
    heap.offer(0.5, 1);
    heap.offer(0.9, 2);
    expect(heap.threshold).toBe(0.5);
    heap.offer(0.7, 3);
    expect(heap.threshold).toBe(0.7);
    expect(heap.sorted()).toEqual([{ score: 0.9, row: 2 }, { score: 0.7, row: 3 }]);
    expect(() => new TopKHeap(-1)).toThrow(/non-negative/);
  });
});

describe('mergeTopK', () => {
  it('merges partial lists by score then row', () => {
    const a = [{ id: 'a0', score: 0.9, row: 0 }, { id: 'a3', score: 0.5, row: 3 }];
    const b = [{ id: 'b7', score: 0.9, row: 7 }, { id: 'b5', score: 0.5, row: 5 }];
    expect(mergeTopK([b, a], 3).map((h) => h.id)).toEqual(['a0', 'b7', 'a3']);
    expect(mergeTopK([], 3)).toEqual([]);
  });
});
