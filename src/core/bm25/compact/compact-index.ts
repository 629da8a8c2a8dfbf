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
  /** Length of each document in index terms (repeats counted), in 16 bits while every length fits. */
  lengths: Uint16Array | Uint32Array;
  /** The vocabulary, sorted by UTF-16 code units. */
  terms: StringTable;
  /** Postings of term `t` are at `[termStarts[t], termStarts[t + 1])`. */
  termStarts: Uint32Array;
  /** Each posting's document number, in runs that share their high bits (half the bytes of 32-bit numbers). */
  postingDocs: PostingDocs;
  /** Each posting's term frequency, 4 bits a posting (`PostingFreqs`). */
  postingFreqs: PostingFreqs;
  /**
   * Each term's highest contribution under one parameter set (the default one), written at build time so that
   * pruning needs no pass over the postings after a restore. Other parameter sets compute theirs on first use.
   */
  maxContributions?: { params: string; values: Float64Array };
}

/**
 * Document numbers of the postings, split in two: the low `bits` bits of each (16 bits a posting), and, per term,
 * its runs of postings whose documents share the high bits. Posting p of run r is document
 * `runHigh[r] · 2^bits + low[p]`. At 1M passages a term has 2.6 runs on average (one for most rare terms, 16 for
 * the common ones), so the runs cost 0.3 bytes a posting beside the 2 of `low`.
 */
export interface PostingDocs {
  /** Width of `low`'s part of a document number (16; less in tests, to make many runs of few documents). */
  bits: number;
  /** Each posting's document number modulo 2^bits. */
  low: Uint16Array;
  /** The runs of term t are `[termRuns[t], termRuns[t + 1])`. */
  termRuns: Uint32Array;
  /** A run's documents divided by 2^bits. */
  runHigh: Uint16Array | Uint32Array;
  /** The position after a run's last posting (a run starts where the one before it ends, or at its term's start). */
  runEnd: Uint32Array;
}

/** Bits of a document number kept per posting. */
export const DOC_LOW_BITS = 16;

/**
 * Term frequencies, two postings a byte (posting p in the low half of byte p/2 when p is even, in the high half when
 * odd): the frequency − 1 while it is at most 15, else 15, and the frequency itself in `large` (a passage repeats a
 * word more than 15 times almost never). Half the bytes of one byte a posting.
 */
export interface PostingFreqs {
  nibbles: Uint8Array;
  /** Positions of the postings whose frequency is above 15, ascending, and their frequencies. */
  largeAt: Uint32Array;
  large: Uint32Array;
}

/** The frequency of a posting whose nibble says 15 (above 15). */
export function largeFreq(freqs: PostingFreqs, p: number): number {
  return freqs.large[lowerBound(freqs.largeAt, p)]!;
}

/** The first position in `[from, to)` of an ascending array whose value is ≥ `value` (`to` when none is). */
export function lowerBound(sorted: Uint16Array | Uint32Array, value: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Posting p's frequency. */
export function freqAt(freqs: PostingFreqs, p: number): number {
  const v = (freqs.nibbles[p >>> 1]! >>> ((p & 1) << 2)) & 15;
  return v < 15 ? v + 1 : largeFreq(freqs, p);
}

/** `PostingFreqs` of frequencies (each ≥ 1). */
export function packFreqs(freqs: ArrayLike<number>): PostingFreqs {
  const nibbles = new Uint8Array((freqs.length + 1) >>> 1);
  let largeCount = 0;
  for (let p = 0; p < freqs.length; p++) {
    const f = freqs[p]!;
    if (f > 15) largeCount++;
    nibbles[p >>> 1] = nibbles[p >>> 1]! | (Math.min(f - 1, 15) << ((p & 1) << 2));
  }
  const largeAt = new Uint32Array(largeCount);
  const large = new Uint32Array(largeCount);
  for (let p = 0, i = 0; p < freqs.length && i < largeCount; p++) {
    if (freqs[p]! > 15) {
      largeAt[i] = p;
      large[i++] = freqs[p]!;
    }
  }
  return { nibbles, largeAt, large };
}

/** The frequencies one a value, in the narrowest array that holds them. */
export function unpackFreqs(freqs: PostingFreqs, count: number): FreqArray {
  let max = 0;
  for (const f of freqs.large) if (f > max) max = f;
  const out = max > 0xffff ? new Uint32Array(count) : max > 0xff ? new Uint16Array(count) : new Uint8Array(count);
  for (let p = 0; p < count; p++) out[p] = ((freqs.nibbles[p >>> 1]! >>> ((p & 1) << 2)) & 15) + 1;
  for (let i = 0; i < freqs.largeAt.length; i++) out[freqs.largeAt[i]!] = freqs.large[i]!;
  return out;
}

/**
 * A `CompactIndex` with its document numbers as 32-bit integers and its frequencies one a value: what the builder
 * collects and version 3 stored.
 */
export type FlatCompactIndex = Omit<CompactIndex, 'postingDocs' | 'postingFreqs'> & { postingDocs: Uint32Array; postingFreqs: FreqArray };

/** Splits each term's document numbers into runs (`PostingDocs`). */
export function splitDocs(termStarts: Uint32Array, docs: Uint32Array, bits = DOC_LOW_BITS): PostingDocs {
  if (bits < 1 || bits > 16) throw new RangeError(`bits must be 1…16, not ${bits}`);
  const terms = termStarts.length - 1;
  const mask = 2 ** bits - 1;
  const low = new Uint16Array(docs.length);
  const termRuns = new Uint32Array(terms + 1);
  let runs = 0;
  let highest = 0;
  for (let t = 0; t < terms; t++) {
    let last = -1;
    for (let p = termStarts[t]!, end = termStarts[t + 1]!; p < end; p++) {
      const high = Math.floor(docs[p]! / (mask + 1));
      if (high !== last) {
        runs++;
        last = high;
        if (high > highest) highest = high;
      }
    }
    termRuns[t + 1] = runs;
  }
  const runHigh = highest <= 0xffff ? new Uint16Array(runs) : new Uint32Array(runs);
  const runEnd = new Uint32Array(runs);
  let r = -1;
  for (let t = 0; t < terms; t++) {
    let last = -1;
    for (let p = termStarts[t]!, end = termStarts[t + 1]!; p < end; p++) {
      const doc = docs[p]!;
      const high = Math.floor(doc / (mask + 1));
      if (high !== last) {
        r++;
        runHigh[r] = high;
        last = high;
      }
      low[p] = doc & mask;
      runEnd[r] = p + 1;
    }
  }
  return { bits, low, termRuns, runHigh, runEnd };
}

/** The first document number run `r` can hold: its documents are this plus their `low`. */
export function runBase(docs: PostingDocs, r: number): number {
  return (docs.runHigh[r]! << docs.bits) >>> 0;
}

/** The document numbers as 32-bit integers again. */
export function joinDocs(termStarts: Uint32Array, docs: PostingDocs): Uint32Array {
  const out = new Uint32Array(docs.low.length);
  const terms = termStarts.length - 1;
  for (let t = 0; t < terms; t++) {
    let p = termStarts[t]!;
    for (let r = docs.termRuns[t]!, end = docs.termRuns[t + 1]!; r < end; r++) {
      const base = runBase(docs, r);
      for (const runEnd = docs.runEnd[r]!; p < runEnd; p++) out[p] = base + docs.low[p]!;
    }
  }
  return out;
}

/** The searched form of a flat index. */
export function splitIndex(index: FlatCompactIndex, bits = DOC_LOW_BITS): CompactIndex {
  return {
    ...index,
    lengths: narrowLengths(index.lengths),
    postingDocs: splitDocs(index.termStarts, index.postingDocs, bits),
    postingFreqs: packFreqs(index.postingFreqs),
  };
}

/** First position in `[from, to)` (one run) whose low part is ≥ `target` (galloping, then binary search). */
export function seekLow(low: Uint16Array, from: number, to: number, target: number): number {
  if (from >= to || low[from]! >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && low[hi]! < target) {
    lo = hi;
    step *= 2;
    hi = Math.min(to, hi + step);
  }
  if (hi > to) hi = to;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (low[mid]! < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The run of `term` holding documents of high part `high`, or −1. */
export function runOf(docs: PostingDocs, term: number, high: number): number {
  for (let r = docs.termRuns[term]!, end = docs.termRuns[term + 1]!; r < end; r++) {
    const h = docs.runHigh[r]!;
    if (h === high) return r;
    if (h > high) return -1;
  }
  return -1;
}

/** The position of `doc` in the postings of `term`, or −1. */
export function positionOf(index: CompactIndex, term: number, doc: number): number {
  const docs = index.postingDocs;
  const r = runOf(docs, term, doc >>> docs.bits);
  if (r < 0) return -1;
  const low = doc - runBase(docs, r);
  // (a plain binary search: no cursor to gallop from)
  const at = lowerBound(docs.low, low, r === docs.termRuns[term] ? index.termStarts[term]! : docs.runEnd[r - 1]!, docs.runEnd[r]!);
  return at < docs.runEnd[r]! && docs.low[at] === low ? at : -1;
}

export type FreqArray = Uint8Array | Uint16Array | Uint32Array;

/** Narrowest array that holds every frequency (what a flat index holds). */
export function compactFreqs(freqs: Uint32Array, max: number): FreqArray {
  if (max <= 0xff) return Uint8Array.from(freqs);
  return max <= 0xffff ? Uint16Array.from(freqs) : freqs;
}

/** Document lengths in 16 bits while every one fits. */
export function narrowLengths(lengths: Uint16Array | Uint32Array): Uint16Array | Uint32Array {
  if (lengths instanceof Uint16Array) return lengths;
  for (const length of lengths) if (length > 0xffff) return lengths;
  return Uint16Array.from(lengths);
}

/** Bytes V8 keeps a flat string in: one a character when every character is below U+0100, else two. */
function stringBytes(text: string): number {
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

export function indexBytes(index: CompactIndex): number {
  return (
    stringBytes(index.ids.text) +
    index.ids.ends.byteLength +
    index.lengths.byteLength +
    stringBytes(index.terms.text) +
    index.terms.ends.byteLength +
    index.termStarts.byteLength +
    index.postingDocs.low.byteLength +
    index.postingDocs.termRuns.byteLength +
    index.postingDocs.runHigh.byteLength +
    index.postingDocs.runEnd.byteLength +
    index.postingFreqs.nibbles.byteLength +
    index.postingFreqs.largeAt.byteLength +
    index.postingFreqs.large.byteLength
  );
}
