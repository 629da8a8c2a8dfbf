import { describe, expect, it } from 'vitest';
import { compareCodePoints, rankForEvaluation } from './ranking.ts';

describe('rankForEvaluation', () => {
  it('sorts by score descending, ties by document id descending (string order)', () => {
    const docs = [
      { id: 'a', score: 1 },
      { id: 'd10', score: 2 },
      { id: 'd9', score: 2 },
      { id: 'z', score: 3 },
      { id: 'b', score: 2 },
    ];
    // 'd9' > 'd10' > 'b' as strings ('9' > '1'), so among the 2.0 scores: d9, d10, b.
    expect(rankForEvaluation('q', docs)).toEqual(['z', 'd9', 'd10', 'b', 'a']);
  });

  it('keeps the first occurrence of a repeated document', () => {
    const docs = [
      { id: 'x', score: 0.1 },
      { id: 'y', score: 0.5 },
      { id: 'x', score: 0.9 },
    ];
    expect(rankForEvaluation('q', docs)).toEqual(['y', 'x']);
  });

  it('drops the document whose id is the query id, unless told not to', () => {
    const docs = [
      { id: 'q1', score: 9 },
      { id: 'd1', score: 1 },
    ];
    expect(rankForEvaluation('q1', docs)).toEqual(['d1']);
    expect(rankForEvaluation('q1', docs, { ignoreIdenticalIds: false })).toEqual(['q1', 'd1']);
    expect(rankForEvaluation('q2', docs)).toEqual(['q1', 'd1']);
  });

  it('puts NaN scores last', () => {
    const docs = [
      { id: 'n', score: NaN },
      { id: 'm', score: -Infinity },
      { id: 'a', score: -5 },
    ];
    // NaN counts as -Infinity; tie with 'm' broken by id descending: 'n' before 'm'.
    expect(rankForEvaluation('q', docs)).toEqual(['a', 'n', 'm']);
  });

  it('handles an empty list', () => {
    expect(rankForEvaluation('q', [])).toEqual([]);
  });
});

describe('compareCodePoints', () => {
  it('orders like UTF-8 bytes', () => {
    expect(compareCodePoints('a', 'b')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('x', 'x')).toBe(0);
    // U+1F600 (a surrogate pair in UTF-16) is above U+FFFF, although '\uD83D' < '\uFFFF' as code units.
    expect('\u{1F600}' < '\uFFFF').toBe(true);
    expect(compareCodePoints('\u{1F600}', '\uFFFF')).toBeGreaterThan(0);
    expect(compareCodePoints('\uFFFF', '\u{1F600}')).toBeLessThan(0);
  });
});
