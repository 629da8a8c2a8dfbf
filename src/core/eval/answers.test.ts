import { describe, expect, it } from 'vitest';
import { exactMatch, isValidAnswerList, normalizeAnswer, tokenF1 } from './answers.ts';

describe('normalizeAnswer', () => {
  it('lower-cases, drops punctuation and articles, collapses whitespace', () => {
    expect(normalizeAnswer('The Eiffel Tower!')).toBe('eiffel tower');
    expect(normalizeAnswer('  A  cat,\tan apple; THE end. ')).toBe('cat apple end');
    // Punctuation is deleted, not replaced: "U.S.A." → "usa"; "rock-n-roll" → "rocknroll".
    expect(normalizeAnswer('U.S.A.')).toBe('usa');
    expect(normalizeAnswer('rock-n-roll')).toBe('rocknroll');
    // Articles only as whole words: "theatre", "anna", "a1" stay.
    expect(normalizeAnswer('theatre anna a1')).toBe('theatre anna a1');
    // Python's \b is Unicode-aware: in "éa" the "a" is inside a word and stays.
    expect(normalizeAnswer('éa à')).toBe('éa à');
    // Non-ASCII punctuation is kept, as in SQuAD.
    expect(normalizeAnswer('«Paris»')).toBe('«paris»');
  });
});

describe('exactMatch (the reference\'s SQuAD rules)', () => {
  it('matches the reference examples', () => {
    expect(exactMatch('The Eiffel Tower!', ['eiffel tower'])).toBe(1);
    expect(exactMatch('Paris, France', ['France Paris'])).toBe(0);
    expect(exactMatch('the', ['an'])).toBe(1);
    expect(exactMatch('the', ['cat'])).toBe(0);
  });
  it('takes the best reference; a missing prediction is ""', () => {
    expect(exactMatch('paris', ['London', 'Paris'])).toBe(1);
    expect(exactMatch(null, ['Paris'])).toBe(0);
    expect(exactMatch(undefined, ['the'])).toBe(1);
  });
  it('is null for invalid references', () => {
    expect(exactMatch('x', [])).toBeNull();
    expect(exactMatch('x', ['ok', ' '])).toBeNull();
    expect(isValidAnswerList(['a'])).toBe(true);
  });
});

describe('tokenF1 (the reference\'s SQuAD rules)', () => {
  it('matches the reference examples', () => {
    // pred [red, red, blue], ref [red, blue, blue]: overlap = 1 red + 1 blue = 2; P = R = 2/3 → F1 = 2/3.
    expect(tokenF1('red red blue', ['red blue blue'])).toBeCloseTo(2 / 3, 12);
    // vs "red green": overlap 1, P 1/2, R 1/2 → 0.5; vs "red blue yellow": overlap 2, P 1, R 2/3 → 0.8.
    expect(tokenF1('red blue', ['red green', 'red blue yellow'])).toBeCloseTo(0.8, 12);
  });
  it('handles empty token lists and no overlap', () => {
    expect(tokenF1('the', ['an'])).toBe(1);
    expect(tokenF1('the', ['cat'])).toBe(0);
    expect(tokenF1(null, ['cat'])).toBe(0);
    expect(tokenF1('dog', ['cat'])).toBe(0);
    expect(tokenF1('x', [])).toBeNull();
  });
  it('normalises before tokenising', () => {
    // "Paris, France" vs "France Paris": same tokens → 1 (while exact match is 0).
    expect(tokenF1('Paris, France', ['France Paris'])).toBe(1);
  });
});
