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
  if (k === 0 || start === end) return [];

  const q = normalizedCopy(query.vector);
  const slot = vectors.slotOffset(options.slot ?? vectors.scannerSlot);
  writeQuery(vectors, q, slot);
  const candidates = Math.min(end - start, Math.ceil(k * rescoreFactor));
  const approximate =
    options.firstPass === 'binary'
      ? int8Scores(vectors, slot, hammingPass(vectors, slot, start, end, Math.ceil(k * (options.binaryFactor ?? 40))), candidates)
      : int8Pass(vectors, slot, start, end, candidates);
  if (options.approximate) return approximate.slice(0, k).map(({ score, row }) => ({ id: vectors.id(row), score, row }));

  const rows = approximate.map((hit) => hit.row).sort((a, b) => a - b);
  const floats = await vectors.floatRows(rows);
  return rows
    .map((row, i) => ({ id: vectors.id(row), score: scoreRow(q, floats[i]!), row }))
    .sort((a, b) => b.score - a.score || a.row - b.row)
    .slice(0, k);
}

// The largest int16 query magnitude for which 127 × q × stride still fits an int32 sum.
function queryRange(stride: number): number {
  return Math.min(32767, Math.floor(0x7fffffff / (127 * stride)));
}

// The int16 query (scaled to the widest safe range) and its sign bits, into the scanner's scratch area.
function writeQuery(vectors: CompactVectors, q: Float64Array, slot: number): void {
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
