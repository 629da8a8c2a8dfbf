import { describe, expect, it } from 'vitest';
import { alignScores, buildCandidatePool, missingScoreFloor, scoreMap } from './candidate-pool.ts';

const doc = (id: string, score: number) => ({ id, score });

describe('buildCandidatePool', () => {
  const primary = [doc('a', 3), doc('b', 2), doc('a', 1)];
  const complementary = [doc('c', 9), doc('b', 8), doc('d', 7)];

  it('union: primary ids then new complementary ids, first occurrence kept', () => {
    expect(buildCandidatePool(primary, complementary, 'union')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('primary: primary ids in order, not deduplicated (as the reference)', () => {
    expect(buildCandidatePool(primary, complementary, 'primary')).toEqual(['a', 'b', 'a']);
  });

  it('empty inputs give an empty pool', () => {
    expect(buildCandidatePool([], [], 'union')).toEqual([]);
    expect(buildCandidatePool([], complementary, 'primary')).toEqual([]);
    expect(buildCandidatePool([], complementary, 'union')).toEqual(['c', 'b', 'd']);
  });
});

describe('scoreMap', () => {
  it('keeps the last score of a duplicate id', () => {
    expect(scoreMap([doc('a', 1), doc('b', 2), doc('a', 3)])).toEqual(
      new Map([
        ['a', 3],
        ['b', 2],
      ]),
    );
  });

  it('treats non-finite scores as missing (G3)', () => {
    const map = scoreMap([doc('a', 5), doc('a', Number.NaN), doc('b', Number.POSITIVE_INFINITY), doc('c', -Infinity), doc('d', 1)]);
    expect(map).toEqual(
      new Map([
        ['a', 5],
        ['d', 1],
      ]),
    );
  });
});

describe('missingScoreFloor', () => {
  it('matches the reference examples', () => {
    expect(missingScoreFloor(new Map())).toBe(-1);
    expect(missingScoreFloor(new Map([['1', 5]]))).toBe(4);
    expect(missingScoreFloor(new Map([['a', 0.9], ['b', 0.1]]))).toBeCloseTo(-0.9, 15);
    expect(missingScoreFloor(new Map([['a', 10], ['b', 0]]))).toBe(-10);
  });
});

describe('alignScores', () => {
  it('looks each pool id up, missing ones at the floor', () => {
    const aligned = alignScores(['a', 'x', 'b'], new Map([['a', 2], ['b', 1]]), -7);
    expect(Array.from(aligned)).toEqual([2, -7, 1]);
    expect(aligned).toBeInstanceOf(Float64Array);
  });
});
