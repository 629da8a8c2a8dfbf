import type { Bm25Params } from '../params.ts';
import { freqAt, lowerBound, positionOf, runBase, seekLow, type CompactIndex, type PostingDocs } from './compact-index.ts';

/** One document of a top-k, before ids and matched terms are looked up. */
export interface ScoredPosting {
  doc: number;
  score: number;
  /** Number of query terms the document contains. */
  quality: number;
  /** Query position of the first query term the document contains. */
  first: number;
}

/** A query term present in the index, with its position among the query's terms present in the index. */
export interface QueryTerm {
  /** 0 … number of present terms − 1, in query order. */
  position: number;
  term: number;
}

/** Bytes of per-block bounds and starts a {@link ScoringContext} keeps, the terms used last (about 1.5 KB a term at 1M documents). */
const KEPT_BLOCK_BOUND_BYTES = 8 << 20;

/**
 * What scoring needs for one parameter set, computed once and kept: each document's length part
 * k1·(1 − b + b·dl/avgdl), each term's highest possible contribution (for pruning), and each term's highest
 * contribution per block of documents. The length part is kept per distinct length (`normOfLength`) and read through
 * each document's length code (`lengthCodes`, 2 bytes a document): term-at-a-time scoring reads it at random, and a
 * quarter of the bytes of a float64 per document keeps far more of it in cache (0.63× the time at 1M passages).
 */
export class ScoringContext {
  /** Each document's index into `normOfLength`. */
  readonly lengthCodes: Uint16Array | Uint32Array;
  /** The length part k1·(1 − b + b·dl/avgdl) of each length code. */
  readonly normOfLength: Float64Array;
  private readonly maxContribution: Float64Array;
  private readonly termBlocks = new Map<number, TermBlocks>();
  private termBlockBytes = 0;
  private boundsBlockSize = 0;

  constructor(
    readonly index: CompactIndex,
    readonly params: Bm25Params,
  ) {
    const { k1, b } = params;
    const avg = index.averageLength;
    const { codes, lengths } = lengthCodes(index.lengths);
    this.lengthCodes = codes;
    // (the expression MiniSearch computes per document, so scores agree to the last bit)
    this.normOfLength = Float64Array.from(lengths, (length) => k1 * (1 - b + (b * length) / avg));
    const stored = index.maxContributions;
    this.maxContribution =
      stored && stored.params === paramsKey(params) ? stored.values : new Float64Array(index.termStarts.length - 1).fill(-1);
  }

  /** Every term's highest contribution (a pass over all postings), as `CompactIndex.maxContributions` keeps it. */
  allUpperBounds(): { params: string; values: Float64Array } {
    for (let t = 0; t < this.maxContribution.length; t++) this.upperBound(t);
    return { params: paramsKey(this.params), values: this.maxContribution };
  }

  idf(term: number): number {
    const df = this.index.termStarts[term + 1]! - this.index.termStarts[term]!;
    const n = this.index.documentCount;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Document `doc`'s length part k1·(1 − b + b·dl/avgdl). */
  lengthNorm(doc: number): number {
    return this.normOfLength[this.lengthCodes[doc]!]!;
  }

  /** The same expression, in the same order, as MiniSearch's BM25 (so scores agree to the last bit). */
  contribution(idf: number, freq: number, doc: number): number {
    const { k1, d } = this.params;
    return idf * (d + (freq * (k1 + 1)) / (freq + this.normOfLength[this.lengthCodes[doc]!]!));
  }

  /**
   * The highest contribution of `term` within each block of `blockSize` documents (0 where it has no postings),
   * computed on first use and kept, for the terms used last, up to {@link KEPT_BLOCK_BOUND_BYTES}.
   */
  blockUpperBounds(term: number, blockSize: number): Float64Array {
    return this.blocksOf(term, blockSize).maxima;
  }

  /**
   * Where each block of `blockSize` documents starts in the postings of `term`: `starts[b]` is the position of its
   * first posting of a document ≥ b · blockSize (the term's end past them all), `starts[blocks]` its end. Kept
   * with {@link blockUpperBounds}.
   */
  blockStarts(term: number, blockSize: number): Uint32Array {
    return this.blocksOf(term, blockSize).starts;
  }

  /**
   * Whether `doc` is in the postings of `term`: searched within the postings of its block when the term's blocks
   * are kept (they are for a search's terms after the blocked kernel), else within its run.
   */
  contains(term: number, doc: number): boolean {
    const docs = this.index.postingDocs;
    // (blocks that divide a run's range of documents, as the blocked kernel's do, lie within one run)
    const kept = this.boundsBlockSize > 0 && (1 << docs.bits) % this.boundsBlockSize === 0 ? this.termBlocks.get(term) : undefined;
    if (!kept) return positionOf(this.index, term, doc) >= 0;
    const block = Math.floor(doc / this.boundsBlockSize);
    const low = doc & ((1 << docs.bits) - 1);
    const end = kept.starts[block + 1]!;
    const at = lowerBound(docs.low, low, kept.starts[block]!, end);
    return at < end && docs.low[at] === low;
  }

  private blocksOf(term: number, blockSize: number): TermBlocks {
    if (blockSize !== this.boundsBlockSize) {
      this.termBlocks.clear();
      this.termBlockBytes = 0;
      this.boundsBlockSize = blockSize;
    }
    let kept = this.termBlocks.get(term);
    if (kept) {
      this.termBlocks.delete(term);
      this.termBlocks.set(term, kept);
      return kept;
    }
    const { termStarts, postingDocs: docs, postingFreqs, documentCount } = this.index;
    const idf = this.idf(term);
    const blocks = Math.ceil(documentCount / blockSize);
    const maxima = new Float64Array(blocks);
    const starts = new Uint32Array(blocks + 1);
    let block = 0;
    let blockEnd = blockSize;
    let max = 0;
    let p = termStarts[term]!;
    starts[0] = p;
    for (let r = docs.termRuns[term]!, runs = docs.termRuns[term + 1]!; r < runs; r++) {
      const base = runBase(docs, r);
      for (const end = docs.runEnd[r]!; p < end; p++) {
        const doc = base + docs.low[p]!;
        if (doc >= blockEnd) {
          maxima[block] = max;
          max = 0;
          const next = Math.floor(doc / blockSize);
          for (let b = block + 1; b <= next; b++) starts[b] = p;
          block = next;
          blockEnd = (block + 1) * blockSize;
        }
        const c = this.contribution(idf, freqAt(postingFreqs, p), doc);
        if (c > max) max = c;
      }
    }
    if (blocks > 0) maxima[block] = Math.max(maxima[block]!, max);
    for (let b = block + 1; b <= blocks; b++) starts[b] = p;
    kept = { maxima, starts };
    const bytes = maxima.byteLength + starts.byteLength;
    for (const [oldest, old] of this.termBlocks) {
      if (this.termBlockBytes + bytes <= KEPT_BLOCK_BOUND_BYTES) break;
      this.termBlocks.delete(oldest);
      this.termBlockBytes -= old.maxima.byteLength + old.starts.byteLength;
    }
    this.termBlocks.set(term, kept);
    this.termBlockBytes += bytes;
    return kept;
  }

  upperBound(term: number): number {
    let max = this.maxContribution[term]!;
    if (max >= 0) return max;
    const { termStarts, postingDocs: docs, postingFreqs } = this.index;
    const idf = this.idf(term);
    max = 0;
    let p = termStarts[term]!;
    for (let r = docs.termRuns[term]!, runs = docs.termRuns[term + 1]!; r < runs; r++) {
      const base = runBase(docs, r);
      for (const end = docs.runEnd[r]!; p < end; p++) {
        const c = this.contribution(idf, freqAt(postingFreqs, p), base + docs.low[p]!);
        if (c > max) max = c;
      }
    }
    this.maxContribution[term] = max;
    return max;
  }
}

/** A term's highest contribution in each block of documents, and where each block starts in its postings. */
interface TermBlocks {
  maxima: Float64Array;
  starts: Uint32Array;
}

/**
 * A small code per document for its length: the length itself while every length is below 65,536, else its rank
 * among the distinct lengths; `lengths[code]` is the length back.
 */
function lengthCodes(documentLengths: Uint16Array | Uint32Array): { codes: Uint16Array | Uint32Array; lengths: ArrayLike<number> } {
  let longest = 0;
  for (const length of documentLengths) if (length > longest) longest = length;
  if (longest < 0x10000) {
    // (16-bit lengths are their own codes: the index's array is shared, not copied)
    const codes = documentLengths instanceof Uint16Array ? documentLengths : Uint16Array.from(documentLengths);
    return { codes, lengths: Array.from({ length: longest + 1 }, (_, l) => l) };
  }
  const distinct = Uint32Array.from(new Set(documentLengths)).sort();
  const codes = distinct.length <= 0x10000 ? new Uint16Array(documentLengths.length) : new Uint32Array(documentLengths.length);
  for (let d = 0; d < documentLengths.length; d++) codes[d] = lowerBound(distinct, documentLengths[d]!);
  return { codes, lengths: distinct };
}

/** Whether `doc` is in the postings of `term`. */
export function contains(index: CompactIndex, term: number, doc: number): boolean {
  return positionOf(index, term, doc) >= 0;
}

/** Identifies a parameter set. */
export function paramsKey(params: Bm25Params): string {
  return `${params.k1} ${params.b} ${params.d} ${params.termCountBoost}`;
}

// (a small integer to V8, so cursors keep integer fields; no index holds a billion documents)
const NO_DOC = 0x3fffffff;

/** A position in one term's postings, with the run it is in (`PostingDocs`). */
interface PostingCursor {
  at: number;
  end: number;
  run: number;
  /** The term's last run + 1. */
  runs: number;
  runEnd: number;
  /** The run's high part, and its first possible document (high · 2^bits). */
  high: number;
  base: number;
  /** The document at `at`, {@link NO_DOC} past the end. */
  doc: number;
}

function cursorAt(docs: PostingDocs, termStart: number, termEnd: number, term: number): PostingCursor {
  const run = docs.termRuns[term]!;
  const runs = docs.termRuns[term + 1]!;
  const cursor = { at: termEnd, end: termEnd, run, runs, runEnd: termEnd, high: 0, base: 0, doc: NO_DOC };
  if (run < runs) {
    cursor.at = termStart;
    enterRun(cursor, docs, run);
    cursor.doc = cursor.base + docs.low[termStart]!;
  }
  return cursor;
}

function enterRun(c: PostingCursor, docs: PostingDocs, run: number): void {
  c.run = run;
  c.runEnd = docs.runEnd[run]!;
  c.high = docs.runHigh[run]!;
  c.base = runBase(docs, run);
}

function advance(c: PostingCursor, docs: PostingDocs): void {
  if (++c.at === c.runEnd) {
    if (c.at === c.end) {
      c.doc = NO_DOC;
      return;
    }
    enterRun(c, docs, c.run + 1);
  }
  c.doc = c.base + docs.low[c.at]!;
}

/** Moves the cursor to its first document ≥ `target` (runs skipped whole, then galloping within one). */
function seekCursor(c: PostingCursor, docs: PostingDocs, target: number): void {
  if (c.at >= c.end) return;
  const high = target >>> docs.bits;
  if (c.high !== high) {
    if (c.high > high) return;
    let r = c.run + 1;
    while (r < c.runs && docs.runHigh[r]! < high) r++;
    if (r === c.runs) {
      c.at = c.end;
      c.doc = NO_DOC;
      return;
    }
    c.at = docs.runEnd[r - 1]!;
    enterRun(c, docs, r);
    if (c.high > high) {
      c.doc = c.base + docs.low[c.at]!;
      return;
    }
  }
  c.at = seekLow(docs.low, c.at, c.runEnd, target - c.base);
  if (c.at === c.runEnd) {
    if (c.at === c.end) {
      c.doc = NO_DOC;
      return;
    }
    enterRun(c, docs, c.run + 1);
  }
  c.doc = c.base + docs.low[c.at]!;
}

/**
 * The exact top-k by document-at-a-time MaxScore. Scores are summed in query order, as MiniSearch does;
 * with `termCountBoost` a score is multiplied by the number of query terms matched. Equal scores are ordered
 * as MiniSearch orders them: more matched terms first (when the boost is divided out), then documents first
 * reached by an earlier query term, then by document number.
 */
export function maxScoreTopK(context: ScoringContext, query: readonly QueryTerm[], k: number): ScoredPosting[] {
  const { termStarts, postingDocs: docs, postingFreqs } = context.index;
  const boost = context.params.termCountBoost;
  const m = query.length;
  if (m === 0 || k <= 0) return [];
  // Lists sorted by upper bound, lowest first: a document found only in lists [0, essential) cannot enter.
  const lists = query
    .map((q) => ({
      ...q,
      idf: context.idf(q.term),
      bound: context.upperBound(q.term),
      ...cursorAt(docs, termStarts[q.term]!, termStarts[q.term + 1]!, q.term),
    }))
    .sort((a, b) => a.bound - b.bound);
  const boundBelow = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) boundBelow[i + 1] = boundBelow[i]! + lists[i]!.bound;
  const bound = (sum: number, terms: number) => (boost ? sum * terms : sum);
  const contributions = new Float64Array(m);
  const present = new Uint8Array(m);

  const heap: ScoredPosting[] = [];
  const worse = ranksBelow(boost);
  // A bound is a sum in another order than the score, so it may round differently: keep a margin. `floor` is the
  // k-th score less that margin (−∞ until the heap holds k documents); a document bounded below it cannot enter.
  let floor = -Infinity;
  const prunable = (upper: number) => upper < floor;
  let essential = 0;

  for (;;) {
    let doc = NO_DOC;
    for (let i = essential; i < m; i++) {
      const at = lists[i]!.doc;
      if (at < doc) doc = at;
    }
    if (doc === NO_DOC) break;
    present.fill(0);
    let partial = 0;
    let matchedCount = 0;
    for (let i = essential; i < m; i++) {
      const list = lists[i]!;
      if (list.doc === doc) {
        const c = context.contribution(list.idf, freqAt(postingFreqs, list.at), doc);
        contributions[list.position] = c;
        present[list.position] = 1;
        partial += c;
        matchedCount++;
        advance(list, docs);
      }
    }
    if (prunable(bound(partial + boundBelow[essential]!, matchedCount + essential))) continue;
    for (let i = essential - 1; i >= 0; i--) {
      const list = lists[i]!;
      seekCursor(list, docs, doc);
      if (list.doc === doc) {
        const c = context.contribution(list.idf, freqAt(postingFreqs, list.at), doc);
        contributions[list.position] = c;
        present[list.position] = 1;
        partial += c;
        matchedCount++;
      }
    }
    let score = 0;
    let first = -1;
    for (let j = 0; j < m; j++) {
      if (present[j]) {
        score += contributions[j]!;
        if (first < 0) first = j;
      }
    }
    if (boost) score *= matchedCount;
    const candidate: ScoredPosting = { doc, score, quality: matchedCount, first };
    if (heap.length < k) {
      heapPush(heap, candidate, worse);
    } else if (worse(heap[0]!, candidate)) {
      heap[0] = candidate;
      siftDown(heap, 0, worse);
    } else continue;
    if (heap.length === k) {
      const threshold = heap[0]!.score;
      floor = threshold - 1e-9 * Math.max(1, Math.abs(threshold));
      while (essential < m && prunable(bound(boundBelow[essential + 1]!, essential + 1))) essential++;
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** Whether `a` ranks below `b`: MiniSearch's order of results, equal scores included. */
function ranksBelow(boost: boolean): (a: ScoredPosting, b: ScoredPosting) => boolean {
  return (a, b) => {
    if (a.score !== b.score) return a.score < b.score;
    if (!boost && a.quality !== b.quality) return a.quality < b.quality;
    if (a.first !== b.first) return a.first > b.first;
    return a.doc > b.doc;
  };
}

/**
 * Largest accumulator block, in documents: a block's accumulators and length codes (~100 KB) stay in L2, and its
 * terms' bounds are tighter than over more documents.
 */
export const ACCUMULATOR_BLOCK = 1 << 13;

/**
 * Documents per accumulator block for a corpus: about an eighth of it, between 2,048 and {@link ACCUMULATOR_BLOCK},
 * so that a small corpus is still several blocks and the blocks after the first can skip terms. (Same process,
 * alternating: npl 0.93× the time with 2,048 than with 16,384; 200k passages 0.97× with 8,192; 1M the same.)
 */
export function accumulatorBlockFor(documentCount: number): number {
  return Math.min(ACCUMULATOR_BLOCK, Math.max(2048, 2 ** Math.ceil(Math.log2(Math.max(1, documentCount / 8)))));
}

/** Per-document accumulators for one block of documents (term-at-a-time scoring), kept between queries. */
export class Accumulators {
  readonly scores: Float64Array;
  readonly quality: Uint8Array;
  readonly first: Uint8Array;
  /** {@link MARKED_TERMS} maps of a block's documents to a left-out term's frequency code there (0: absent). */
  readonly marks: Uint8Array;
  constructor(readonly blockSize: number = ACCUMULATOR_BLOCK) {
    this.scores = new Float64Array(blockSize);
    this.quality = new Uint8Array(blockSize);
    this.first = new Uint8Array(blockSize);
    this.marks = new Uint8Array(blockSize * MARKED_TERMS);
  }
}

/** Left-out terms a block may map document by document (see `exhaustiveTopK`). */
const MARKED_TERMS = 4;
/**
 * A left-out term searched for more than 1/MARK_AFTER of its postings in a block has them mapped instead (a search
 * costs about as much as mapping 30 postings; 8, 16 and 32 measured within 2 % of each other at 200k passages).
 */
const MARK_AFTER = 32;

/**
 * The exact top-k term at a time: every posting of every query term is added to its document's accumulator, in
 * query order (so sums are MiniSearch's to the bit). Faster than MaxScore when the query's lists cover much of
 * the corpus (queries of common words), where pruning skips little. The corpus is taken in blocks of documents
 * with one cursor per term, so the accumulators and the length parts touched stay in cache. Bounds are per block
 * (each term's highest contribution within it, `ScoringContext.blockUpperBounds`): a block none of whose documents
 * can beat the k-th score is skipped unscored. Once the top-k is full, a block skips the terms MaxScore would (those
 * whose bounds together cannot reach the k-th score): only the other terms' postings are read, and the skipped
 * terms are looked up for the documents that can still enter (by search, or in a map of the block's documents once
 * a term is searched often).
 *
 * The block loops are closures over this function's variables, which V8 keeps in a context object and reloads at
 * every use; the hot loops copy what they read into locals first (`low_`, …) or run in a top-level function
 * (`addPostings`): 0.85× the kernel's time at 200k passages, 0.82× at 1M.
 */
export function exhaustiveTopK(context: ScoringContext, query: readonly QueryTerm[], k: number, acc: Accumulators): ScoredPosting[] {
  const { termStarts, postingDocs: docs, postingFreqs, documentCount } = context.index;
  const { low } = docs;
  const nibbles = postingFreqs.nibbles;
  const { scores, quality } = acc;
  // A block lies within one run's range of documents (a power of 2 that divides 2^bits), so its postings of a term
  // are one stretch of one run: documents `blockRunBase + low[p]`.
  // (a shift, not 2 ** n, so that V8 keeps the block arithmetic in small integers)
  const blockSize = 1 << Math.min(Math.floor(Math.log2(acc.blockSize)), docs.bits);
  const { lengthCodes, normOfLength } = context;
  const { k1, d } = context.params;
  const k1plus1 = k1 + 1;
  const boost = context.params.termCountBoost;
  const m = query.length;
  if (m === 0 || k <= 0) return [];
  const ordered = [...query].sort((a, b) => a.position - b.position);
  const at = Uint32Array.from(ordered, (q) => termStarts[q.term]!);
  const until = new Uint32Array(m);
  let blockRunBase = 0;
  const idfs = Float64Array.from(ordered, (q) => context.idf(q.term));
  const positions = Uint8Array.from(ordered, (q) => Math.min(q.position, 255));
  const blockBounds = ordered.map((q) => context.blockUpperBounds(q.term, blockSize));
  const blockStarts = ordered.map((q) => context.blockStarts(q.term, blockSize));
  const bounds = new Float64Array(m);
  // Per block: the terms with postings in it by their highest contribution there, lowest first, and the sums of
  // the lowest of those bounds (as in MaxScore).
  const inBlock = new Uint16Array(m);
  const boundBelow = new Float64Array(m + 1);
  const cursor = new Uint32Array(m);
  const lastDoc = new Uint32Array(m);
  const marks = acc.marks;
  const slots = new Int8Array(m);
  const searches = new Uint32Array(m);
  const worse = ranksBelow(boost);
  const heap: ScoredPosting[] = [];
  // As in MaxScore: a bound is summed in another order than a score, so keep a margin. `floor` is the k-th score
  // less the margin, kept up to date as the heap changes (it is read far more often than the heap changes).
  let floor = -Infinity;
  const heapChanged = () => {
    if (heap.length < k) return;
    const threshold = heap[0]!.score;
    floor = threshold - 1e-9 * Math.max(1, Math.abs(threshold));
  };
  const prunable = (upper: number) => upper < floor;

  for (let blockStart = 0; blockStart < documentCount; blockStart += blockSize) {
    const high = blockStart >>> docs.bits;
    blockRunBase = (high << docs.bits) >>> 0;
    const block = (blockStart / blockSize) | 0;
    for (let i = 0; i < m; i++) until[i] = blockStarts[i]![block + 1]!;
    let present = 0;
    for (let i = 0; i < m; i++) {
      if (until[i]! === at[i]!) continue;
      const bound = blockBounds[i]![block]!;
      bounds[i] = bound;
      let e = present++;
      for (; e > 0 && bounds[inBlock[e - 1]!]! > bound; e--) inBlock[e] = inBlock[e - 1]!;
      inBlock[e] = i;
    }
    for (let e = 0; e < present; e++) boundBelow[e + 1] = boundBelow[e]! + bounds[inBlock[e]!]!;
    if (present === 0) continue;
    if (heap.length === k && prunable(boost ? boundBelow[present]! * present : boundBelow[present]!)) {
      at.set(until);
      continue;
    }
    let skipped = 0;
    if (heap.length === k) {
      while (skipped < present && prunable(boost ? boundBelow[skipped + 1]! * (skipped + 1) : boundBelow[skipped + 1]!)) skipped++;
    }
    if (skipped > 0) {
      cursor.set(at);
      lastDoc.fill(0);
      scoreBlockSkipping(skipped, present, blockStart);
      at.set(until);
      continue;
    }
    for (let i = 0; i < m; i++) accumulate(i, blockStart);
    // Collect from the block's postings (touched documents only), clearing what was touched.
    const offset = blockStart - blockRunBase;
    // (in locals, not read from the closure's context at every posting; `kth` is the heap's k-th score)
    const lowC = low, qualityC = quality, scoresC = scores;
    let kth = heap.length === k ? heap[0]!.score : -Infinity;
    for (let i = 0; i < m; i++) {
      for (let p = at[i]!, end = until[i]!; p < end; p++) {
        const local = lowC[p]! - offset;
        const matched = qualityC[local]!;
        if (matched === 0) continue;
        const score = boost ? scoresC[local]! * matched : scoresC[local]!;
        qualityC[local] = 0;
        scoresC[local] = 0;
        if (score < kth) continue;
        // Terms are collected in query order, so the first to reach a document is the first it contains.
        const candidate: ScoredPosting = { doc: blockStart + local, score, quality: matched, first: positions[i]! };
        if (heap.length < k) heapPush(heap, candidate, worse);
        else if (worse(heap[0]!, candidate)) {
          heap[0] = candidate;
          siftDown(heap, 0, worse);
        } else continue;
        heapChanged();
        if (heap.length === k) kth = heap[0]!.score;
      }
      at[i] = until[i]!;
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));

  /** Adds term `i`'s postings in the block to its documents' accumulators. */
  function accumulate(i: number, blockStart: number): void {
    const from = at[i]!;
    const end = until[i]!;
    const { largeAt } = postingFreqs;
    if (largeAt.length > 0 && lowerBound(largeAt, from) < lowerBound(largeAt, end)) {
      accumulateLarge(i, blockStart);
      return;
    }
    // (the arrays in locals: V8 then keeps them in registers through the loop)
    addPostings(low, nibbles, lengthCodes, normOfLength, scores, quality, from, end, blockRunBase, blockStart - blockRunBase, idfs[i]!, d, k1plus1);
  }

  /** {@link accumulate} where some of the postings have a frequency above 15. */
  function accumulateLarge(i: number, blockStart: number): void {
    const idf = idfs[i]!;
    const base = blockRunBase;
    const offset = blockStart - base;
    for (let p = at[i]!, end = until[i]!; p < end; p++) {
      const docLow = low[p]!;
      const local = docLow - offset;
      const freq = freqAt(postingFreqs, p);
      scores[local] = scores[local]! + idf * (d + (freq * k1plus1) / (freq + normOfLength[lengthCodes[base + docLow]!]!));
      quality[local] = quality[local]! + 1;
    }
  }

  /**
   * One block with the `skipped` lowest-bound terms left out of the pass: the other terms' contributions are summed
   * per document, each document they reach is bounded, and only one that can still enter looks the skipped terms
   * up. A sum in this order may differ from the query-order one in its last bits, so a document whose sum comes
   * near the k-th score is scored again in query order, and that exact score is what enters the top-k.
   * A looked-up term is searched per document (a galloping search from the last one) until its searches reach
   * 1/{@link MARK_AFTER} of its postings in the block; then its postings are written to a map of the block's
   * documents (a byte each) and read from there.
   */
  function scoreBlockSkipping(skipped: number, present: number, blockStart: number): void {
    // (closure variables in locals: V8 then keeps them in registers through the loops)
    const low_ = low, quality_ = quality, scores_ = scores, boundBelow_ = boundBelow, inBlock_ = inBlock, lastDoc_ = lastDoc, cursor_ = cursor, at_ = at, until_ = until, idfs_ = idfs, normOfLength_ = normOfLength, lengthCodes_ = lengthCodes, positions_ = positions;
    const d_ = d, k1plus1_ = k1plus1, boost_ = boost, blockSize_ = blockSize, bounds_ = bounds;
    // (`prunable`, inlined: the floor only changes where the heap does, below)
    let floor_ = floor;
    let essentialPostings = 0;
    for (let e = skipped; e < present; e++) essentialPostings += until_[inBlock_[e]!]! - at_[inBlock_[e]!]!;
    // A left-out term with no more postings in the block than the other terms is summed with them all the same (a
    // pass over its postings, and one to clear them, costs less than a search per document): [probed, skipped).
    let probed = skipped;
    while (probed > 0 && until_[inBlock_[probed - 1]!]! - at_[inBlock_[probed - 1]!]! <= essentialPostings) probed--;
    // The essential term with the most postings here is summed last, in the pass that bounds its documents (one
    // pass over its postings instead of two): `fused`. Its documents are done with in that pass (their
    // accumulators cleared), so the other essential terms' passes skip them.
    let fused = skipped;
    for (let e = skipped + 1; e < present; e++) {
      if (until_[inBlock_[e]!]! - at_[inBlock_[e]!]! > until_[inBlock_[fused]!]! - at_[inBlock_[fused]!]!) fused = e;
    }
    for (let e = probed; e < present; e++) if (e !== fused) accumulate(inBlock_[e]!, blockStart);
    const base = blockRunBase;
    const nibbles_ = nibbles;
    // A looked-up term searched often in this block has its postings mapped by document instead (a byte each, one
    // pass), and is then read in one step: slots[e] is its map, −1 while it is searched.
    const marks_ = marks, slots_ = slots, searches_ = searches;
    slots_.fill(-1, 0, probed);
    searches_.fill(0, 0, probed);
    let slotsUsed = 0;
    for (let t = skipped; t < present; t++) {
      // `fused` first, then the other essential terms in order
      const e = t === skipped ? fused : t <= fused ? t - 1 : t;
      const i = inBlock_[e]!;
      const sums = e === fused;
      const idf = idfs_[i]!;
      // (a document of the fused term that cannot enter even with its highest contribution here is passed over
      // before that contribution is worked out)
      const reach = bounds_[i]! + boundBelow_[probed]!;
      for (let p = at_[i]!, end = until_[i]!; p < end; p++) {
        const docLow = low_[p]!;
        const doc = base + docLow;
        const local = doc - blockStart;
        let count: number;
        let partial: number;
        if (sums) {
          count = quality_[local]! + 1;
          partial = scores_[local]!;
          const upper = partial + reach;
          if ((boost_ ? upper * (count + probed) : upper) < floor_) {
            if (count > 1) {
              quality_[local] = 0;
              scores_[local] = 0;
            }
            continue;
          }
          const nibble = (nibbles_[p >>> 1]! >>> ((p & 1) << 2)) & 15;
          const freq = nibble < 15 ? nibble + 1 : freqAt(postingFreqs, p);
          partial += idf * (d_ + (freq * k1plus1_) / (freq + normOfLength_[lengthCodes_[doc]!]!));
        } else {
          count = quality_[local]!;
          if (count === 0) continue;
          partial = scores_[local]!;
        }
        quality_[local] = 0;
        scores_[local] = 0;
        // Highest bound first, giving up as soon as what is found plus what is left cannot enter.
        let f = probed;
        for (; f > 0; f--) {
          const upper = partial + boundBelow_[f]!;
          if ((boost_ ? upper * (count + f) : upper) < floor_) break;
          const j = inBlock_[f - 1]!;
          let slot = slots_[f - 1]!;
          if (slot < 0 && ++searches_[f - 1]! * MARK_AFTER > until_[j]! - at_[j]! && slotsUsed < MARKED_TERMS) {
            slot = slots_[f - 1] = slotsUsed++;
            markFrequencies(low_, nibbles, at_[j]!, until_[j]!, marks_, slot * blockSize_ - (blockStart - base));
          }
          if (slot >= 0) {
            const code = marks_[slot * blockSize_ + local]!;
            if (code === 0) continue;
            const freq = code < 16 ? code : freqAt(postingFreqs, seekLow(low_, at_[j]!, until_[j]!, docLow));
            partial += idfs_[j]! * (d_ + (freq * k1plus1_) / (freq + normOfLength_[lengthCodes_[doc]!]!));
            count++;
            continue;
          }
          // Candidates come in document order along each list, so a cursor per skipped term mostly moves forward.
          const q = seekLow(low_, doc < lastDoc_[j]! ? at_[j]! : cursor_[j]!, until_[j]!, docLow);
          cursor_[j] = q;
          lastDoc_[j] = doc;
          if (q < until_[j]! && low_[q] === docLow) {
            const freq = freqAt(postingFreqs, q);
            partial += idfs_[j]! * (d_ + (freq * k1plus1_) / (freq + normOfLength_[lengthCodes_[doc]!]!));
            count++;
          }
        }
        if (f > 0 || (boost_ ? partial * count : partial) < floor_) continue;
        // The exact score: every term looked up again and summed in query order.
        let score = 0;
        let matched = 0;
        let firstPosition = 0;
        for (let j = 0; j < m; j++) {
          const q = seekLow(low_, at_[j]!, until_[j]!, docLow);
          if (q < until_[j]! && low_[q] === docLow) {
            const freq = freqAt(postingFreqs, q);
            const c = idfs_[j]! * (d_ + (freq * k1plus1_) / (freq + normOfLength_[lengthCodes_[doc]!]!));
            if (matched === 0) {
              score = c;
              firstPosition = positions_[j]!;
            } else score += c;
            matched++;
          }
        }
        if (boost_) score *= matched;
        const candidate: ScoredPosting = { doc, score, quality: matched, first: firstPosition };
        if (worse(heap[0]!, candidate)) {
          heap[0] = candidate;
          siftDown(heap, 0, worse);
          heapChanged();
          floor_ = floor;
        }
      }
    }
    for (let e = probed; e < skipped; e++) {
      const i = inBlock_[e]!;
      for (let p = at_[i]!, end = until_[i]!; p < end; p++) {
        const local = base + low_[p]! - blockStart;
        quality_[local] = 0;
        scores_[local] = 0;
      }
    }
    for (let slot = 0; slot < slotsUsed; slot++) marks_.fill(0, slot * blockSize_, (slot + 1) * blockSize_);
  }
}

/** Writes each posting's frequency code (1–15 the frequency, 16 a larger one) at `marks[offset + low]`. */
function markFrequencies(low: Uint16Array, nibbles: Uint8Array, from: number, end: number, marks: Uint8Array, offset: number): void {
  for (let p = from; p < end; p++) marks[offset + low[p]!] = ((nibbles[p >>> 1]! >>> ((p & 1) << 2)) & 15) + 1;
}

/**
 * Adds the contributions of postings [from, end) (all with frequencies of at most 15) to their documents'
 * accumulators, `scores[low − offset]`: `context.contribution`, inlined. An untouched accumulator holds 0, and
 * 0 + c is c exactly, so there is no branch on whether the document was reached.
 */
function addPostings(
  low: Uint16Array, nibbles: Uint8Array, lengthCodes: Uint16Array | Uint32Array, normOfLength: Float64Array,
  scores: Float64Array, quality: Uint8Array, from: number, end: number, base: number, offset: number,
  idf: number, d: number, k1plus1: number,
): void {
  for (let p = from; p < end; p++) {
    const docLow = low[p]!;
    const local = docLow - offset;
    const freq = ((nibbles[p >>> 1]! >>> ((p & 1) << 2)) & 15) + 1;
    scores[local] = scores[local]! + idf * (d + (freq * k1plus1) / (freq + normOfLength[lengthCodes[base + docLow]!]!));
    quality[local] = quality[local]! + 1;
  }
}

/**
 * The term-at-a-time kernel before blocking, with accumulators over the whole corpus: kept only as the
 * benchmarks' baseline (strategy `auto-unblocked`).
 */
export function unblockedTopK(context: ScoringContext, query: readonly QueryTerm[], k: number, acc: Accumulators): ScoredPosting[] {
  const { termStarts, postingDocs: docs, postingFreqs } = context.index;
  const { scores, quality, first } = acc;
  const boost = context.params.termCountBoost;
  if (query.length === 0 || k <= 0) return [];
  const ordered = [...query].sort((a, b) => a.position - b.position);
  for (const q of ordered) {
    const idf = context.idf(q.term);
    let p = termStarts[q.term]!;
    for (let r = docs.termRuns[q.term]!, runs = docs.termRuns[q.term + 1]!; r < runs; r++) {
      const base = runBase(docs, r);
      for (const end = docs.runEnd[r]!; p < end; p++) {
        const doc = base + docs.low[p]!;
        if (quality[doc] === 0) {
          scores[doc] = context.contribution(idf, freqAt(postingFreqs, p), doc);
          first[doc] = Math.min(q.position, 255);
        } else {
          scores[doc] = scores[doc]! + context.contribution(idf, freqAt(postingFreqs, p), doc);
        }
        quality[doc] = quality[doc]! + 1;
      }
    }
  }
  const worse = ranksBelow(boost);
  const heap: ScoredPosting[] = [];
  for (const q of ordered) {
    let p = termStarts[q.term]!;
    for (let r = docs.termRuns[q.term]!, runs = docs.termRuns[q.term + 1]!; r < runs; r++) {
      const base = runBase(docs, r);
      for (const end = docs.runEnd[r]!; p < end; p++) {
        const doc = base + docs.low[p]!;
        const matched = quality[doc]!;
        if (matched === 0) continue;
        const score = boost ? scores[doc]! * matched : scores[doc]!;
        quality[doc] = 0;
        scores[doc] = 0; // as exhaustiveTopK leaves them, should the two share accumulators
        if (heap.length === k && score < heap[0]!.score) continue;
        const candidate: ScoredPosting = { doc, score, quality: matched, first: first[doc]! };
        if (heap.length < k) heapPush(heap, candidate, worse);
        else if (worse(heap[0]!, candidate)) {
          heap[0] = candidate;
          siftDown(heap, 0, worse);
        }
      }
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

function heapPush<T>(heap: T[], item: T, worse: (a: T, b: T) => boolean): void {
  heap.push(item);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function siftDown<T>(heap: T[], i: number, worse: (a: T, b: T) => boolean): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let w = i;
    if (l < heap.length && worse(heap[l]!, heap[w]!)) w = l;
    if (r < heap.length && worse(heap[r]!, heap[w]!)) w = r;
    if (w === i) return;
    [heap[i], heap[w]] = [heap[w]!, heap[i]!];
    i = w;
  }
}
