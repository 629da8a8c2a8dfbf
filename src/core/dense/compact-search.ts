import { assertSameEmbeddingModel, type QueryEmbedding } from '../embedding/index.ts';
import { BLOCK_ROWS, type CompactVectors } from './compact-vectors.ts';
import { normalizedCopy, scoreRow } from './dense-search.ts';
import { TopKHeap, type DenseHit } from './top-k.ts';

/** `int8`: every row scored by its int8 codes. `binary`: Hamming distance of sign bits first, then int8. */
export type CompactFirstPass = 'int8' | 'binary';

/** Options of {@link searchCompact}. */
export interface CompactSearchOptions {
  /** Default `int8`. */
  firstPass?: CompactFirstPass;
  /** Candidates rescored with float32 rows: k × this; default {@link defaultRescoreFactor} of the set's size. */
  rescoreFactor?: number;
  /** With `binary`, the Hamming pass keeps k × this rows for int8 scoring; default 40. */
  binaryFactor?: number;
  /** Scratch area to use (0 …); concurrent scanners of one set need different slots. Default the set's `scannerSlot`. */
  slot?: number;
  /** Row range to scan, as in `searchDense`; default all rows. */
  start?: number;
  end?: number;
  /** Skip rescoring and return the int8 scores (for partial scans merged before one rescoring). */
  approximate?: boolean;
  /**
   * Certified exact (int8 first pass only): every row is rescored whose int8 score plus its quantisation bound
   * could reach the k-th exact score, so the hits and scores are those of `searchDense` to the bit; how many that is
   * depends on the data, not on `rescoreFactor` (unused). Default false.
   */
  exact?: boolean;
}

/** A certified exact search's hits, and how many rows its bounds left to rescore (see {@link searchCompactExact}). */
export interface ExactCompactResult {
  hits: DenseHit[];
  /** Rows rescored with float32: those whose bound could still reach the top-k when their turn came. */
  rescored: number;
}

/** Rows per step of the default rescoring factor (k × 4 up to a million rows, one more per 250k after that). */
const ROWS_PER_RESCORE_STEP = 250_000;

/**
 * Candidates rescored per top-k row for a set of `rows` vectors: 4 up to a million rows, then one more per 250k
 * rows (12 at 3M, 36 at 8.8M). The denser a set, the more of its true neighbours int8 scores misorder: on the
 * bench's clustered vectors, k × 4 keeps recall@10 at 0.994 at 1M but only 0.978 at 3M and 0.913 at 8.8M, while
 * k × 10 gives 1.000 at 3M at the same latency (the first pass dominates).
 */
export function defaultRescoreFactor(rows: number): number {
  return Math.max(4, Math.ceil(rows / ROWS_PER_RESCORE_STEP));
}

/**
 * Top-k cosine over the compact form: a first pass over int8 codes (or sign bits, then int8) keeps the best
 * k × `rescoreFactor` rows, which are rescored with their float32 rows exactly as `searchDense` scores them. The
 * hits are therefore exact scores; only a true top-k row that missed the candidates can be lost (recall < 1).
 */
export async function searchCompact(vectors: CompactVectors, query: QueryEmbedding, k: number, options: CompactSearchOptions = {}): Promise<DenseHit[]> {
  if (options.exact) {
    if (options.firstPass === 'binary' || options.approximate) throw new Error('a certified exact search needs the int8 first pass and float32 rescoring');
    return (await searchCompactExact(vectors, query, k, options)).hits;
  }
  const search = prepare(vectors, query, k, options);
  if (!search) return [];
  const { q, slot, start, end, candidates } = search;
  const approximate =
    options.firstPass === 'binary'
      ? int8Scores(vectors, slot, hammingPass(vectors, slot, start, end, Math.ceil(k * (options.binaryFactor ?? 40))), candidates)
      : int8Pass(vectors, slot, start, end, candidates);
  if (options.approximate) return approximate.slice(0, k).map(({ score, row }) => ({ id: vectors.id(row), score, row }));
  return (await rescore(vectors, q, approximate.map((hit) => hit.row))).sort(byScoreThenRow).slice(0, k);
}

/**
 * Certified exact top-k over the compact form (`searchCompact` with `exact: true`): the same hits and scores as
 * `searchDense` over the float32 rows, to the bit, with how much rescoring the certificate took.
 */
export async function searchCompactExact(
  vectors: CompactVectors, query: QueryEmbedding, k: number, options: Omit<CompactSearchOptions, 'exact' | 'firstPass' | 'approximate' | 'binaryFactor'> = {},
): Promise<ExactCompactResult> {
  const search = prepare(vectors, query, k, options);
  if (!search) return { hits: [], rescored: 0 };
  return certifiedTopK(vectors, search, k);
}

interface PreparedSearch {
  /** The normalised query. */
  q: Float64Array;
  /** int16 query = round(q × queryScale). */
  queryScale: number;
  slot: number;
  start: number;
  end: number;
  /** Rows the first pass keeps for rescoring. */
  candidates: number;
}

// Checks the arguments and writes the query into the scanner's slot; null when nothing is to be found.
function prepare(vectors: CompactVectors, query: QueryEmbedding, k: number, options: CompactSearchOptions): PreparedSearch | null {
  assertSameEmbeddingModel(vectors.model, query.model);
  const dims = vectors.dimensions;
  if (query.vector.length !== dims) throw new Error(`query vector has ${query.vector.length} dimensions; the vectors hold ${dims}`);
  if (!Number.isInteger(k) || k < 0) throw new Error(`k must be a non-negative integer, got ${k}`);
  const start = options.start ?? 0;
  const end = options.end ?? vectors.size;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > vectors.size || start > end) {
    throw new Error(`row range [${start}, ${end}) is not within [0, ${vectors.size})`);
  }
  const rescoreFactor = options.rescoreFactor ?? defaultRescoreFactor(vectors.size);
  if (!(rescoreFactor >= 1)) throw new Error(`rescoreFactor must be at least 1, got ${rescoreFactor}`);
  if (k === 0 || start === end) return null;
  const q = normalizedCopy(query.vector);
  const slot = vectors.slotOffset(options.slot ?? vectors.scannerSlot);
  const queryScale = writeQuery(vectors, q, slot);
  return { q, queryScale, slot, start, end, candidates: Math.min(end - start, Math.ceil(k * rescoreFactor)) };
}

// The bounds. For a row with float32 values x, int8 codes c and scale s (x̂ = s·c), and the normalised query q
// with int16 codes q16 = round(q·Q), the score searchDense gives is q·x (in float64, to within 1e-15), and
//   q·x = q̂·x̂ + (q − q̂)·x̂ + q·(x − x̂),   q̂ = q16 / Q,
//   |x_j − x̂_j| ≤ s/2 (rounding to the code; plus s·2⁻¹⁷ for the float32 scale),  |x̂_j| ≤ 127·s,
// so |q·x − q̂·x̂| ≤ s·E with E = Σ|q_j|·(1/2 + 2⁻¹⁷) + 127·Σ|q_j − q̂_j|. The kernel's score r is q̂·x̂·Q rounded
// twice to float32 (the int32 sum to float, then times s), so q̂·x̂ is within |r|·2⁻²² / Q of r / Q. 1e-9 more
// absorbs float64 rounding in the bounds and in the exact sum.
function scoreBounds(q: Float64Array, queryScale: number): { perScale: number; inverse: number } {
  let l1 = 0;
  let queryError = 0;
  for (let j = 0; j < q.length; j++) {
    l1 += Math.abs(q[j]);
    queryError += Math.abs(q[j] - Math.round(q[j] * queryScale) / queryScale);
  }
  return { perScale: (l1 * (0.5 + 2 ** -17) + 127 * queryError) * (1 + 1e-9), inverse: 1 / queryScale };
}

const SLACK = 1e-9;
const ROUNDING = 2 ** -22;

async function rescore(vectors: CompactVectors, q: Float64Array, rows: number[]): Promise<DenseHit[]> {
  rows.sort((a, b) => a - b);
  const floats = await vectors.floatRows(rows);
  return rows.map((row, i) => ({ id: vectors.id(row), score: scoreRow(q, floats[i]!), row }));
}

const byScoreThenRow = (a: DenseHit, b: DenseHit) => b.score - a.score || a.row - b.row;

// One int8 pass keeps every row whose upper bound reaches `floor`, the k-th best lower bound seen so far: k rows
// score at least `floor`, so the k-th exact score does too, and a row whose upper bound is below it cannot be in
// the top-k (nor tie with it). The floor only rises, and the list is pruned as it does; then the kept rows are
// rescored, best bound first, until the bounds fall below the k-th exact score.
async function certifiedTopK(vectors: CompactVectors, search: PreparedSearch, k: number): Promise<ExactCompactResult> {
  const { q, queryScale, slot, start, end } = search;
  // A zero query scores every row 0: the first k rows, as searchDense returns them.
  if (queryScale === 0) {
    const hits = await rescore(vectors, q, Array.from({ length: Math.min(k, end - start) }, (_, i) => start + i));
    return { hits: hits.sort(byScoreThenRow), rescored: hits.length };
  }
  const { perScale, inverse } = scoreBounds(q, queryScale);
  const scales = new Float32Array(vectors.memory.buffer, vectors.scalesOffset + start * 4, end - start);
  let maxScale = 0;
  for (let i = 0; i < scales.length; i++) if (scales[i]! > maxScale) maxScale = scales[i]!;
  const blockSlack = maxScale * perScale + SLACK;

  const lower = new TopKHeap(k);
  let floor = -Infinity;
  let rows: number[] = [];
  let uppers: number[] = [];
  let pruneAt = Math.max(1024, 8 * k);
  const results = new Float32Array(vectors.memory.buffer, outOffset(vectors, slot), BLOCK_ROWS);
  for (let block = start; block < end; block += BLOCK_ROWS) {
    const count = Math.min(BLOCK_ROWS, end - block);
    const best = dotRows(vectors, slot, block, count);
    if ((best + Math.abs(best) * ROUNDING) * inverse + blockSlack < floor) continue;
    for (let i = 0; i < count; i++) {
      const r = results[i]!;
      const approximate = r * inverse;
      const margin = Math.abs(r) * ROUNDING * inverse + scales[block + i - start]! * perScale + SLACK;
      const upper = approximate + margin;
      if (!(upper >= floor)) continue; // NaN rows too: searchDense skips them
      rows.push(block + i);
      uppers.push(upper);
      const low = approximate - margin;
      if (low > floor) {
        lower.offer(low, block + i);
        floor = lower.threshold;
      }
    }
    if (rows.length >= pruneAt) {
      ({ rows, uppers } = prune(rows, uppers, floor));
      pruneAt = Math.max(pruneAt, 2 * rows.length);
    }
  }
  ({ rows, uppers } = prune(rows, uppers, floor));
  return rescoreByBound(vectors, q, rows, uppers, k);
}

// Rows to rescore per fetch: the float rows may come from storage, a chunk at a time.
const RESCORE_BATCH = 32;

// Rescores the kept rows best upper bound first and stops at the first whose bound is below the k-th exact score
// found (an equal bound may still tie and win on its row, so it is rescored).
async function rescoreByBound(vectors: CompactVectors, q: Float64Array, rows: number[], uppers: number[], k: number): Promise<ExactCompactResult> {
  const order = Array.from(rows.keys()).sort((a, b) => uppers[b]! - uppers[a]! || rows[a]! - rows[b]!);
  let hits: DenseHit[] = [];
  let rescored = 0;
  for (let next = 0; next < order.length; ) {
    const kth = hits.length >= k ? hits[k - 1]!.score : -Infinity;
    if (uppers[order[next]!]! < kth) break;
    const batch = order.slice(next, next + Math.max(RESCORE_BATCH, k)).map((i) => rows[i]!);
    next += batch.length;
    rescored += batch.length;
    hits = hits.concat(await rescore(vectors, q, batch)).sort(byScoreThenRow).slice(0, k);
  }
  return { hits, rescored };
}

function prune(rows: number[], uppers: number[], floor: number): { rows: number[]; uppers: number[] } {
  const keptRows: number[] = [];
  const keptUppers: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (uppers[i]! >= floor) {
      keptRows.push(rows[i]!);
      keptUppers.push(uppers[i]!);
    }
  }
  return { rows: keptRows, uppers: keptUppers };
}

// The largest int16 query magnitude for which 127 × q × stride still fits an int32 sum.
function queryRange(stride: number): number {
  return Math.min(32767, Math.floor(0x7fffffff / (127 * stride)));
}

// The int16 query (scaled to the widest safe range) and its sign bits, into the scanner's scratch area. Returns
// the scale (int16 query = round(q × scale)).
function writeQuery(vectors: CompactVectors, q: Float64Array, slot: number): number {
  const { stride, bitStride, memory } = vectors;
  let max = 0;
  for (let j = 0; j < q.length; j++) max = Math.max(max, Math.abs(q[j]));
  const scale = max > 0 ? queryRange(stride) / max : 0;
  const q16 = new Int16Array(memory.buffer, slot, stride);
  q16.fill(0);
  for (let j = 0; j < q.length; j++) q16[j] = Math.round(q[j] * scale);
  const bits = new Uint8Array(memory.buffer, slot + stride * 2, bitStride);
  bits.fill(0);
  for (let j = 0; j < q.length; j++) if (q[j] > 0) bits[j >> 3]! |= 1 << (j & 7);
  return scale;
}

function outOffset(vectors: CompactVectors, slot: number): number {
  return slot + vectors.stride * 2 + vectors.bitStride;
}

function dotRows(vectors: CompactVectors, slot: number, first: number, count: number): number {
  const { codesOffset, scalesOffset, stride } = vectors;
  return vectors.kernels.dotInt8(codesOffset + first * stride, slot, stride, count, scalesOffset + first * 4, outOffset(vectors, slot));
}

// Ranking scores are the int8 dot times the row's scale; the query's own scale is common to all rows. A block
// whose best row cannot enter the heap is skipped without looking at its rows (most blocks, once the heap fills).
function int8Pass(vectors: CompactVectors, slot: number, start: number, end: number, keep: number): { score: number; row: number }[] {
  const heap = new TopKHeap(keep);
  const results = new Float32Array(vectors.memory.buffer, outOffset(vectors, slot), BLOCK_ROWS);
  let threshold = heap.threshold;
  for (let first = start; first < end; first += BLOCK_ROWS) {
    const count = Math.min(BLOCK_ROWS, end - first);
    if (dotRows(vectors, slot, first, count) <= threshold) continue;
    for (let i = 0; i < count; i++) {
      const score = results[i]!;
      if (score > threshold) {
        heap.offer(score, first + i);
        threshold = heap.threshold;
      }
    }
  }
  return heap.sorted();
}

function hammingPass(vectors: CompactVectors, slot: number, start: number, end: number, keep: number): number[] {
  const heap = new TopKHeap(Math.min(keep, end - start));
  const out = outOffset(vectors, slot);
  const results = new Int32Array(vectors.memory.buffer, out, BLOCK_ROWS);
  const query = slot + vectors.stride * 2;
  let threshold = heap.threshold;
  for (let first = start; first < end; first += BLOCK_ROWS) {
    const count = Math.min(BLOCK_ROWS, end - first);
    if (-vectors.kernels.hamming(vectors.bitsOffset + first * vectors.bitStride, query, vectors.bitStride, count, out) <= threshold) continue;
    for (let i = 0; i < count; i++) {
      const score = -results[i]!;
      if (score > threshold) {
        heap.offer(score, first + i);
        threshold = heap.threshold;
      }
    }
  }
  return heap.sorted().map((hit) => hit.row).sort((a, b) => a - b);
}

// Int8 scores of given rows (increasing), best `keep` kept.
function int8Scores(vectors: CompactVectors, slot: number, rows: readonly number[], keep: number): { score: number; row: number }[] {
  const heap = new TopKHeap(Math.min(keep, rows.length));
  for (const row of rows) heap.offer(dotRows(vectors, slot, row, 1), row);
  return heap.sorted();
}
