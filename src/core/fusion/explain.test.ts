import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../eval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import { fuseConvex } from './convex.ts';
import { explainConvex, explainRrf } from './explain.ts';
import type { NormalizeMethod } from './normalize.ts';
import { fuseRrf } from './rrf.ts';

/** Two random lists over an id space that overlaps in part (some ids in both, some in one). */
function lists(seed: number): [ScoredDoc[], ScoredDoc[]] {
  const random = mulberry32(seed);
  const make = (offset: number) =>
    Array.from({ length: 20 }, (_, i) => ({ id: `d${offset + i}`, score: random() * 10 })).sort((a, b) => b.score - a.score);
  return [make(0), make(12)];
}

describe('fusion explanations', () => {
  it('RRF: 1/(k + rank) per list, plus the missing-list term, is exactly the fused score', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const [a, b] = lists(seed);
      const fused = fuseRrf(a, b, { k: 60, fetchK: 20 });
      for (const doc of fused) {
        const why = explainRrf(a, b, doc.id, { k: 60, fetchK: 20 })!;
        expect(why.score).toBe(doc.score);
        const ranks = why.lists.map((l) => l.ranks[0] ?? null);
        const expected = ranks.reduce<number>((s, r) => s + (r === null ? 1 / (60 + 20 + 1) : 1 / (60 + r)), 0);
        expect(why.score).toBeCloseTo(expected, 12);
        expect(why.missingTerm === null).toBe(ranks.every((r) => r !== null));
      }
    }
    expect(explainRrf([{ id: 'a', score: 1 }], [], 'b', { fetchK: 2 })).toBeNull();
  });

  it('RRF: a document a list repeats gets both of its terms', () => {
    const why = explainRrf([{ id: 'a', score: 2 }, { id: 'a', score: 1 }], [{ id: 'a', score: 5 }], 'a', { k: 1, fetchK: 2 })!;
    expect(why.lists[0].ranks).toEqual([1, 2]);
    expect(why.score).toBe(fuseRrf([{ id: 'a', score: 2 }, { id: 'a', score: 1 }], [{ id: 'a', score: 5 }], { k: 1, fetchK: 2 })[0]!.score);
    expect(why.score).toBeCloseTo(1 / 2 + 1 / 3 + 1 / 2, 12);
  });

  it.each<NormalizeMethod>(['mm', 'z', 'dbsf'])('convex combination (%s): weight × normalised per list is exactly the fused score', (method) => {
    for (let seed = 1; seed <= 10; seed++) {
      const [a, b] = lists(seed);
      const options = { weight: 0.3, normalizeMethod: method };
      for (const doc of fuseConvex(a, b, options)) {
        const why = explainConvex(a, b, doc.id, options)!;
        expect(why.score).toBe(doc.score);
        expect(why.lists[0].weight).toBe(0.3);
        expect(why.lists[1].weight).toBe(0.7);
        for (const [i, part] of why.lists.entries()) {
          expect(part.weighted).toBe(part.weight * part.normalized);
          const list = i === 0 ? a : b;
          expect(part.raw).toBe(list.find((d) => d.id === doc.id)?.score ?? null);
          expect(part.rank).toBe(part.raw === null ? null : list.findIndex((d) => d.id === doc.id) + 1);
        }
        expect(why.candidates).toBe(32); // d0…d19 ∪ d12…d31
      }
    }
  });

  it('min-max: the top of each list normalises to 1 and its bottom to 0', () => {
    const a = [{ id: 'x', score: 9 }, { id: 'y', score: 4 }, { id: 'z', score: 1 }];
    const b = [{ id: 'z', score: 0.8 }, { id: 'x', score: 0.2 }];
    const why = explainConvex(a, b, 'x', { weight: 0.5 })!;
    expect(why.lists.map((l) => l.normalized)).toEqual([1, 0]);
    expect(explainConvex(a, b, 'y')!.lists[1]).toMatchObject({ raw: null, rank: null, normalized: 0 });
  });
});
