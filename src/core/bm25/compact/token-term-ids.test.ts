import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../eval/index.ts';
import { Analyzer } from '../../text/index.ts';
import { TokenTermIds } from './token-term-ids.ts';

/** The ids `TokenTermIds` gives for each text, and those of `analyzer.terms` through the same vocabulary. */
function both(texts: readonly string[], analyzer = new Analyzer()) {
  const vocabulary = new Map<string, number>();
  const termId = (term: string) => vocabulary.get(term) ?? (vocabulary.set(term, vocabulary.size), vocabulary.size - 1);
  const table = new TokenTermIds(analyzer, termId);
  const fast = texts.map((text) => {
    const { ids, count } = table.idsOf(text);
    return [...ids.subarray(0, count)];
  });
  const reference = texts.map((text) => analyzer.terms(text).map(termId));
  return { fast, reference, vocabulary };
}

const SAMPLES = [
  'The Cat sat on the mat; the CAT, the cats!',
  'e-mail: user@example.org (v2.0) — 50% off… “quoted” ‘single’ it’s',
  'Zürich, São Paulo, Łódź and Ærøskøbing; naïve café résumé',
  'Ελληνικά κείμενα και Русский текст',
  '東京都の天気は晴れです。カタカナとひらがな、漢字',
  'mixed東京text and Latin',
  'combining e\u0301 marks and Arabic كتاب and Hebrew ספר',
  'emoji 🙂 between words, 𝐀𝐁𝐂 mathematical letters and 𠀋 (a Han character outside the BMP)',
  'control\u0001chars\u001fand\u007fdelete\ttabs\nnew lines\u00a0nbsp\u2028separators\u3000ideographic space',
  '',
  '   ',
  'a',
  'Repeated repeated REPEATED words words words',
  'numbers 1,234.56 and 3rd 42nd 1990s',
];

describe('TokenTermIds', () => {
  it('gives the ids of Analyzer.terms, in order, on every kind of text', () => {
    const { fast, reference } = both(SAMPLES);
    expect(fast).toEqual(reference);
  });

  it('gives them again when every token is already in its table, and with other analyzer settings', () => {
    for (const analyzer of [new Analyzer(), new Analyzer({ lowercase: false, stopWords: 'none', stemming: 'none' })]) {
      const { fast, reference } = both([...SAMPLES, ...SAMPLES], analyzer);
      expect(fast).toEqual(reference);
    }
  });

  it('makes no term for a word cut by a character outside the BMP (the expression sees one word)', () => {
    const { fast, reference, vocabulary } = both(['abc𝐀 def']);
    expect(fast).toEqual(reference);
    expect([...vocabulary.keys()]).toEqual(new Analyzer().terms('abc𝐀 def'));
  });

  it('agrees on random texts drawn from many scripts and separators, past its table growing', () => {
    const pool = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 'é', 'ß', 'ø', 'ж', 'λ', 'ا', '東', 'の', 'カ', '한', 'ก', '\u0301', ' ', ' ', ' ', '.', ',', '-', '’', '—', '\n', '\u00a0', '$', '🙂'];
    const next = mulberry32(5);
    const texts = Array.from({ length: 8000 }, (_, i) => {
      const length = next() % 80;
      // every 50th text keeps its characters outside the BMP; the others drop them
      return Array.from({ length }, () => pool[next() % pool.length]!).filter((c) => i % 50 === 0 || c !== '🙂').join('');
    });
    const { fast, reference } = both(texts);
    expect(fast).toEqual(reference);
    // more distinct tokens than the table's first size holds (32,768), so it grew and rehashed on the way
    const tokens = new Set(texts.flatMap((text) => new Analyzer().tokens(text).map((t) => t.word)));
    expect(tokens.size).toBeGreaterThan(33_000);
  });
});
