import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../eval/index.ts';
import { findSorted, packStrings, stringAt } from './string-table.ts';

describe('findSorted', () => {
  it('finds every string of a table sorted as JavaScript sorts, and nothing else', () => {
    const next = mulberry32(7);
    const alphabet = ['a', 'b', 'z', 'é', 'Ω', '中', '😀', '\u0000', 'A'];
    const word = () => Array.from({ length: next() % 6 }, () => alphabet[next() % alphabet.length]).join('');
    const strings = [...new Set([...Array.from({ length: 400 }, word), '', 'a', 'ab', 'abc', 'b'])].sort();
    const table = packStrings(strings);
    strings.forEach((s, i) => {
      expect(stringAt(table, i)).toBe(s);
      expect(findSorted(table, s)).toBe(i);
    });
    for (let n = 0; n < 400; n++) {
      const probe = word() + alphabet[next() % alphabet.length];
      expect(findSorted(table, probe)).toBe(strings.indexOf(probe));
    }
    // prefixes and extensions of present strings, and strings past either end
    expect(findSorted(table, 'abcd')).toBe(strings.indexOf('abcd'));
    expect(findSorted(packStrings(['b', 'bb']), 'a')).toBe(-1);
    expect(findSorted(packStrings(['b', 'bb']), 'bba')).toBe(-1);
    expect(findSorted(packStrings([]), 'a')).toBe(-1);
  });
});
