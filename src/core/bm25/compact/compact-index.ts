import type { StringTable } from './string-table.ts';

/**
 * A read-only BM25 index as flat typed arrays: the form that is stored, restored and searched directly.
 * Documents are numbered 0…n−1 in the order they were added; postings of a term are in document order.
 */
export interface CompactIndex {
  documentCount: number;
  /**
   * Mean document length in tokens, accumulated document by document exactly as MiniSearch does
   * (`avg = (avg·i + length) / (i + 1)`), so that scores match MiniSearch's to the last bit.
   */
  averageLength: number;
  /** External ids in document order. */
  ids: StringTable;
  /** Length of each document in index terms (repeats counted). */
  lengths: Uint32Array;
  /** The vocabulary, sorted by UTF-16 code units. */
  terms: StringTable;
  /** Postings of term `t` are at `[termStarts[t], termStarts[t + 1])`. */
  termStarts: Uint32Array;
  postingDocs: Uint32Array;
  /**
   * Term frequencies in the narrowest array that holds them all: 8 bits while no term repeats more than 255 times in
   * one document (passages: a quarter less memory than 16 bits), else 16, else 32.
   */
  postingFreqs: FreqArray;
  /**
   * Each term's highest contribution under one parameter set (the default one), written at build time so that
   * pruning needs no pass over the postings after a restore. Other parameter sets compute theirs on first use.
   */
  maxContributions?: { params: string; values: Float64Array };
}

export type FreqArray = Uint8Array | Uint16Array | Uint32Array;

/** Narrowest array that holds every frequency. */
export function compactFreqs(freqs: Uint32Array, max: number): FreqArray {
  if (max <= 0xff) return Uint8Array.from(freqs);
  return max <= 0xffff ? Uint16Array.from(freqs) : freqs;
}

export function indexBytes(index: CompactIndex): number {
  return (
    index.ids.text.length * 2 +
    index.ids.ends.byteLength +
    index.lengths.byteLength +
    index.terms.text.length * 2 +
    index.terms.ends.byteLength +
    index.termStarts.byteLength +
    index.postingDocs.byteLength +
    index.postingFreqs.byteLength
  );
}
