import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS } from './stop-words.ts';

/** How text is turned into index terms. Changing any of these requires re-indexing. */
export interface AnalyzerOptions {
  /** Lower-case every token before anything else. */
  lowercase: boolean;
  /** `english`: drop Lucene's 33 English stop words; `none`: keep every token. */
  stopWords: 'english' | 'none';
  /** `porter`: reduce tokens with the Porter stemmer; `none`: keep them whole. */
  stemming: 'porter' | 'none';
}

export const DEFAULT_ANALYZER_OPTIONS: Readonly<AnalyzerOptions> = Object.freeze({
  lowercase: true,
  stopWords: 'english',
  stemming: 'porter',
});

/** A word of the original text and where it stands, for highlighting. */
export interface TextToken {
  /** The word as it appears in the text. */
  word: string;
  /** Offset of its first character in the text. */
  start: number;
  /** The index term it becomes, or null when it is dropped (stop word). */
  term: string | null;
}

// A word is a run of letters, digits and marks of any script; whitespace, punctuation and symbols (ASCII or not:
// dashes, curly quotes, the ideographic full stop) separate words. Chinese and Japanese are written without
// spaces, so each Han, Hiragana or Katakana character is a word of its own (unigrams).
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\s\p{P}\p{S}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;

// How a UTF-16 code unit takes part in words under `WORD` (`charKind`):
/** Between words. */
export const SEPARATOR = 0;
/** Part of a run of letters, digits and marks. */
export const WORD_PART = 1;
/** A word by itself (Han, Hiragana, Katakana). */
export const SINGLE_WORD = 2;
/** Half of a surrogate pair: only the expression can tell. */
export const SURROGATE = 3;

const SINGLE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD_CHAR = /[^\s\p{P}\p{S}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
// Kinds read off the expressions themselves, a code unit at a time as they are first met (+1, so 0 is unknown).
const charKinds = new Uint8Array(0x10000);

/** The kind of code unit `code` (0 … 0xffff). */
export function charKind(code: number): number {
  const known = charKinds[code]!;
  if (known !== 0) return known - 1;
  const ch = String.fromCharCode(code);
  const kind = code >= 0xd800 && code <= 0xdfff ? SURROGATE : SINGLE.test(ch) ? SINGLE_WORD : WORD_CHAR.test(ch) ? WORD_PART : SEPARATOR;
  charKinds[code] = kind + 1;
  return kind;
}

/**
 * Turns text into index terms. Terms are cached by the token as written: a corpus repeats a small vocabulary many
 * times, and lower-casing, the stop-word check and the Porter stemmer are the costliest steps of indexing.
 */
export class Analyzer {
  readonly options: Readonly<AnalyzerOptions>;
  private readonly termCache = new Map<string, string | null>();

  constructor(options: Partial<AnalyzerOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_ANALYZER_OPTIONS, ...options });
  }

  /** The index term for one token, or null when the token is dropped. */
  term(token: string): string | null {
    let term = this.termCache.get(token);
    if (term === undefined) {
      term = this.uncachedTerm(token);
      this.termCache.set(token, term);
    }
    return term;
  }

  /** Every index term of `text`, in order, repeats included. */
  terms(text: string): string[] {
    const out: string[] = [];
    for (const [token] of text.matchAll(WORD)) {
      const term = this.term(token);
      if (term !== null) out.push(term);
    }
    return out;
  }

  /** The distinct index terms of a query, in first-seen order (a repeated query word counts once). */
  queryTerms(text: string): string[] {
    return [...new Set(this.terms(text))];
  }

  private uncachedTerm(token: string): string | null {
    const { lowercase, stopWords, stemming } = this.options;
    const word = lowercase ? token.toLowerCase() : token;
    if (word.length === 0) return null;
    if (stopWords === 'english' && ENGLISH_STOP_WORDS.has(lowercase ? word : word.toLowerCase())) return null;
    return stemming === 'none' ? word : stemmer(word);
  }

  /** The words of `text` with their offsets and terms, for highlighting matches in the original text. */
  tokens(text: string): TextToken[] {
    const out: TextToken[] = [];
    for (const match of text.matchAll(WORD)) {
      out.push({ word: match[0], start: match.index, term: this.term(match[0]) });
    }
    return out;
  }
}
