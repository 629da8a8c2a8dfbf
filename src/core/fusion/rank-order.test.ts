import { describe, expect, it } from 'vitest';
import { sortByScoreDescending, takeTop } from './rank-order.ts';

describe('sortByScoreDescending', () => {
  it('is stable for equal scores and puts NaN last', () => {
    const docs = [
      { id: 'n1', score: NaN },
      { id: 'a', score: 1 },
      { id: 'b', score: 2 },
      { id: 'c', score: 1 },
      { id: 'n2', score: NaN },
      { id: 'd', score: -Infinity },
    ];
    expect(sortByScoreDescending(docs).map((d) => d.id)).toEqual(['b', 'a', 'c', 'd', 'n1', 'n2']);
    expect(docs[0].id).toBe('n1'); // input untouched
  });
});

describe('takeTop', () => {
  it('slices, keeps all when undefined, rejects bad values', () => {
    const docs = [{ id: 'a', score: 1 }, { id: 'b', score: 0 }];
    expect(takeTop(docs, 1)).toEqual([{ id: 'a', score: 1 }]);
    expect(takeTop(docs, undefined)).toHaveLength(2);
    expect(() => takeTop(docs, -1)).toThrow(/topK/);
    expect(() => takeTop(docs, 1.5)).toThrow(/topK/);
  });
});
