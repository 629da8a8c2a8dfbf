import type { PassageOptions } from './ingest-types.ts';

/** Checks passage options; throws a RangeError that says what is wrong. */
export function validatePassageOptions(passages: PassageOptions): void {
  if (passages.mode !== 'whole' && passages.mode !== 'split') {
    throw new RangeError(`passages.mode must be 'whole' or 'split', not '${String(passages.mode)}'`);
  }
  if (passages.mode === 'whole') return;
  const { size, overlap } = passages;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`passages.size must be a whole number of words >= 1, not ${size}`);
  if (!Number.isInteger(overlap) || overlap < 0) {
    throw new RangeError(`passages.overlap must be a whole number of words >= 0, not ${overlap}`);
  }
  if (overlap >= size) {
    throw new RangeError(`passages.overlap (${overlap}) must be smaller than passages.size (${size})`);
  }
}

/** The words of a text: runs of non-whitespace. */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/**
 * Cuts a stream of words into passages: passage n (from 1) holds words [(n-1)·step, (n-1)·step + size) with
 * step = size − overlap, and the last passage is the first one that reaches the end of the text (so it may be
 * shorter). Only `size` words are held at a time.
 */
export class PassageWindow {
  private readonly size: number;
  private readonly step: number;
  private words: string[] = [];
  /** Index (in the whole text) of words[0]. */
  private start = 0;
  /** End index of the last passage emitted. */
  private emittedEnd = 0;

  constructor(size: number, overlap: number) {
    validatePassageOptions({ mode: 'split', size, overlap });
    this.size = size;
    this.step = size - overlap;
  }

  /** Adds words; returns the passages they complete. */
  push(words: readonly string[]): string[][] {
    const done: string[][] = [];
    for (const word of words) {
      this.words.push(word);
      if (this.words.length === this.size) {
        done.push(this.words);
        this.emittedEnd = this.start + this.size;
        this.words = this.words.slice(this.step);
        this.start += this.step;
      }
    }
    return done;
  }

  /** The last, shorter passage, if words remain that no passage has covered yet. */
  finish(): string[][] {
    return this.start + this.words.length > this.emittedEnd ? [this.words] : [];
  }
}
