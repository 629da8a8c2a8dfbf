import { describe, expect, it } from 'vitest';
import { PassageWindow, validatePassageOptions, wordsOf } from './text-passages.ts';

function passages(text: string, size: number, overlap: number, feed = 1): string[] {
  const window = new PassageWindow(size, overlap);
  const words = wordsOf(text);
  const out: string[][] = [];
  for (let i = 0; i < words.length; i += feed) out.push(...window.push(words.slice(i, i + feed)));
  out.push(...window.finish());
  return out.map((w) => w.join(' '));
}

describe('PassageWindow', () => {
  const ten = 'w1 w2 w3 w4 w5 w6 w7 w8 w9 w10';

  it('slides by size - overlap and ends with the first window that reaches the end', () => {
    // size 4, overlap 1, step 3: [1..4], [4..7], [7..10]; 7 + 3 = 10 reaches the end.
    expect(passages(ten, 4, 1)).toEqual(['w1 w2 w3 w4', 'w4 w5 w6 w7', 'w7 w8 w9 w10']);
    // 11 words: one more, shorter passage [10..11].
    expect(passages(ten + ' w11', 4, 1)).toEqual(['w1 w2 w3 w4', 'w4 w5 w6 w7', 'w7 w8 w9 w10', 'w10 w11']);
  });

  it('cuts without overlap', () => {
    expect(passages(ten, 3, 0)).toEqual(['w1 w2 w3', 'w4 w5 w6', 'w7 w8 w9', 'w10']);
  });

  it('gives a text shorter than one window as one passage, and no passage for no words', () => {
    expect(passages('a b', 5, 2)).toEqual(['a b']);
    expect(passages('   ', 5, 2)).toEqual([]);
  });

  it('does not depend on how the words arrive', () => {
    expect(passages(ten, 4, 2, 3)).toEqual(passages(ten, 4, 2, 1));
    // size 4, overlap 2, step 2: starts 0, 2, 4, 6 (6 + 4 = 10 reaches the end).
    expect(passages(ten, 4, 2, 7)).toEqual(['w1 w2 w3 w4', 'w3 w4 w5 w6', 'w5 w6 w7 w8', 'w7 w8 w9 w10']);
  });
});

describe('validatePassageOptions', () => {
  it('requires overlap < size with a clear message', () => {
    expect(() => validatePassageOptions({ mode: 'split', size: 5, overlap: 5 })).toThrow('passages.overlap (5) must be smaller than passages.size (5)');
    expect(() => validatePassageOptions({ mode: 'split', size: 0, overlap: 0 })).toThrow(RangeError);
    expect(() => validatePassageOptions({ mode: 'split', size: 3, overlap: -1 })).toThrow('passages.overlap');
    expect(() => validatePassageOptions({ mode: 'split', size: 2.5, overlap: 0 })).toThrow('passages.size');
  });

  it('ignores size and overlap in whole mode', () => {
    expect(() => validatePassageOptions({ mode: 'whole', size: 0, overlap: 9 })).not.toThrow();
  });
});
