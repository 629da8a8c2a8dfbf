import { assertSameEmbeddingModel, type QueryEmbedding } from '../embedding/index.ts';
import { scanWithFloat32Filter } from './float32-filter-scan.ts';
import type { KernelChoice } from './kernels/vector-kernels.ts';
import { TopKHeap, type DenseHit } from './top-k.ts';
import type { VectorMatrix } from './vector-matrix.ts';

/** Options of {@link searchDense}. */
export interface DenseSearchOptions {
  /** First row to scan (inclusive); default 0. */
  start?: number;
  /** Row to stop at (exclusive); default the matrix size. */
  end?: number;
  /**
   * `auto` (default): a float32 WebAssembly SIMD pass picks the rows whose exact score is computed, where SIMD is
   * available; `js`: every row scored in plain JS; `wasm-simd`: throw where SIMD is unavailable. Same hits and
   * scores either way.
   */
  kernels?: KernelChoice;
}

/**
 * Exact top-k cosine search: the query is normalised once (float64), scored against every stored (normalised) row
 * by dot product, and the best `k` kept in a bounded heap. Ties rank the lower row first.
 * `start`/`end` restrict the scan to a row range so several workers can split a matrix; merge their lists with
 * `mergeTopK`. Throws when the query comes from a different model than the matrix.
 */
export function searchDense(matrix: VectorMatrix, query: QueryEmbedding, k: number, options: DenseSearchOptions = {}): DenseHit[] {
  assertSameEmbeddingModel(matrix.model, query.model);
  const dims = matrix.dimensions;
  if (query.vector.length !== dims) {
    throw new Error(`query vector has ${query.vector.length} dimensions; the matrix holds ${dims}`);
  }
  const start = options.start ?? 0;
  const end = options.end ?? matrix.size;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > matrix.size || start > end) {
    throw new Error(`row range [${start}, ${end}) is not within [0, ${matrix.size})`);
  }

  const q = normalizedCopy(query.vector);
  const heap = new TopKHeap(k);
  if (k > 0) {
    const choice = options.kernels ?? 'auto';
    const filtered = choice !== 'js' && scanWithFloat32Filter(matrix.rows, q, start, end, heap, (row) => scoreRow(q, row));
    if (!filtered && choice === 'wasm-simd') throw new Error('WebAssembly SIMD is not available in this environment.');
    if (!filtered) scanRows(matrix, q, start, end, heap);
  }
  return heap.sorted().map(({ score, row }) => ({ id: matrix.id(row), score, row }));
}

/** The query as searches score it: a float64 copy scaled to unit length (an all-zero query stays zero). */
export function normalizedCopy(vector: ArrayLike<number>): Float64Array {
  const q = Float64Array.from(vector);
  let sumSquares = 0;
  for (let j = 0; j < q.length; j++) sumSquares += q[j] * q[j];
  const scale = sumSquares > 0 ? 1 / Math.sqrt(sumSquares) : 0;
  for (let j = 0; j < q.length; j++) q[j] *= scale;
  return q;
}

/**
 * The score {@link searchDense} gives one row, summed in the same order, so a rescored candidate gets exactly
 * the exact search's score.
 */
export function scoreRow(q: Float64Array, row: ArrayLike<number>): number {
  const dims = q.length;
  if (dims % 4 !== 0) {
    let s = 0;
    for (let j = 0; j < dims; j++) s += q[j] * row[j]!;
    return s;
  }
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let j = 0; j < dims; j += 4) {
    s0 += q[j] * row[j]!;
    s1 += q[j + 1] * row[j + 1]!;
    s2 += q[j + 2] * row[j + 2]!;
    s3 += q[j + 3] * row[j + 3]!;
  }
  return s0 + s1 + (s2 + s3);
}

// The plain scan, where WebAssembly SIMD is unavailable (the same sums as scoreRow, inlined by hand): dot products chunk by chunk, heap touched only when a row beats the current threshold.
// Widths divisible by 4 (all real models) take a 4-accumulator loop; a remainder loop inside it made V8's code
// ~1.6× slower, so other widths use a plain loop instead.
function scanRows(matrix: VectorMatrix, q: Float64Array, start: number, end: number, heap: TopKHeap): void {
  const { rows } = matrix;
  const dims = rows.dimensions;
  const chunkRows = rows.chunkRows;
  const unrolled = dims % 4 === 0;
  let threshold = heap.threshold;
  for (let c = Math.floor(start / chunkRows); c * chunkRows < end; c++) {
    const data = rows.rawChunk(c);
    const base = c * chunkRows;
    const from = Math.max(start, base) - base;
    const to = Math.min(end, base + chunkRows) - base;
    let o = from * dims;
    for (let r = from; r < to; r++) {
      let score: number;
      if (unrolled) {
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let j = 0; j < dims; j += 4, o += 4) {
          s0 += q[j] * data[o];
          s1 += q[j + 1] * data[o + 1];
          s2 += q[j + 2] * data[o + 2];
          s3 += q[j + 3] * data[o + 3];
        }
        score = s0 + s1 + (s2 + s3);
      } else {
        let s = 0;
        for (let j = 0; j < dims; j++, o++) s += q[j] * data[o];
        score = s;
      }
      if (score > threshold) {
        heap.offer(score, base + r);
        threshold = heap.threshold;
      }
    }
  }
}
