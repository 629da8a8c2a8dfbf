import type { ChunkedRows } from './chunked-rows.ts';
import { vectorKernels, type VectorKernels } from './kernels/vector-kernels.ts';
import { FLOAT_BLOCK_ROWS, type RowArena } from './row-arena.ts';
import type { TopKHeap } from './top-k.ts';

/**
 * How far a float32 kernel score may lie from the float64 score of the same unit-length row and query: every
 * product and partial sum rounds once to float32 (at most dims/16 + 5 roundings on any path, plus the query's
 * own rounding), each off by at most 2^-24 of a sum whose magnitude is at most Σ|q_j·r_j| ≤ ‖q‖·‖r‖ = 1. This
 * counts a rounding per dimension and doubles it, which leaves room for rows a little off unit length.
 */
export function float32ScoreBound(dims: number): number {
  return (dims + 16) * 2 ** -23;
}

interface Scratch {
  memory: WebAssembly.Memory;
  kernels: VectorKernels;
}

// One scratch memory per thread, made on first use; null where WebAssembly SIMD is unavailable.
let scratch: Scratch | null | undefined;

function simdScratch(): Scratch | null {
  if (scratch === undefined) {
    const memory = new WebAssembly.Memory({ initial: 2 });
    const kernels = vectorKernels(memory);
    scratch = kernels.kind === 'wasm-simd' ? { memory, kernels } : null;
  }
  return scratch;
}

/** Whether {@link scanWithFloat32Filter} can run in this thread (WebAssembly SIMD is available). */
export function float32FilterAvailable(): boolean {
  return simdScratch() !== null;
}

/**
 * Offers rows [start, end) to `heap` with the scores `exactScore` gives them, as a plain scan would, but computes
 * those (float64) scores only for rows whose float32 SIMD score comes within {@link float32ScoreBound} of the
 * heap's threshold: a row further below cannot enter, so the heap ends exactly as after the plain scan.
 * `q` is the normalised query. Rows in a {@link RowArena} are scored where they lie; plain chunks are copied block
 * by block into this thread's scratch memory first. Returns false, having done nothing, where WebAssembly SIMD is
 * unavailable.
 */
export function scanWithFloat32Filter(
  rows: ChunkedRows,
  q: Float64Array,
  start: number,
  end: number,
  heap: TopKHeap,
  exactScore: (row: Float32Array) => number,
): boolean {
  if (rows.arena) {
    scanArena(rows, rows.arena, q, start, end, heap, exactScore);
    return true;
  }
  const s = simdScratch();
  if (!s) return false;
  const dims = rows.dimensions;
  const stride = Math.ceil(dims / 16) * 64; // bytes: whole 16-float steps, zero padded
  const packed = stride === dims * 4;
  const rowsAt = stride;
  const outAt = rowsAt + FLOAT_BLOCK_ROWS * stride;
  const needed = outAt + FLOAT_BLOCK_ROWS * 4;
  if (s.memory.buffer.byteLength < needed) s.memory.grow(Math.ceil((needed - s.memory.buffer.byteLength) / 65536));
  const memory = new Float32Array(s.memory.buffer);
  // query and rows zero past `dims`, so the padding adds nothing
  memory.fill(0, 0, outAt >> 2);
  memory.set(q, 0);
  const scores = new Float32Array(s.memory.buffer, outAt, FLOAT_BLOCK_ROWS);
  const filter = new BlockFilter(heap, float32ScoreBound(dims), scores, exactScore, dims);
  forEachBlock(rows, start, end, (data, base, b, n) => {
    if (packed) {
      memory.set(data.subarray(b * dims, (b + n) * dims), rowsAt >> 2);
    } else {
      for (let i = 0; i < n; i++) memory.set(data.subarray((b + i) * dims, (b + i + 1) * dims), (rowsAt + i * stride) >> 2);
    }
    filter.offer(s.kernels.dotF32(rowsAt, 0, stride, n, outAt), data, base, b, n);
  });
  return true;
}

// The kernel reads the rows where they lie in the arena: only the query is copied, once.
function scanArena(
  rows: ChunkedRows,
  arena: RowArena,
  q: Float64Array,
  start: number,
  end: number,
  heap: TopKHeap,
  exactScore: (row: Float32Array) => number,
): void {
  const dims = rows.dimensions;
  const stride = dims * 4;
  const { kernels, queryAt, outAt } = arena.scanner(rows.scannerSlot);
  new Float32Array(arena.memory.buffer, queryAt, dims).set(q);
  const scores = new Float32Array(arena.memory.buffer, outAt, FLOAT_BLOCK_ROWS);
  const filter = new BlockFilter(heap, float32ScoreBound(dims), scores, exactScore, dims);
  forEachBlock(rows, start, end, (data, base, b, n, chunk) => {
    filter.offer(kernels.dotF32(arena.chunkOffset(chunk) + b * stride, queryAt, stride, n, outAt), data, base, b, n);
  });
}

// Calls `block` for every run of at most FLOAT_BLOCK_ROWS rows of [start, end) within one chunk.
function forEachBlock(
  rows: ChunkedRows,
  start: number,
  end: number,
  block: (data: Float32Array, base: number, first: number, count: number, chunk: number) => void,
): void {
  const chunkRows = rows.chunkRows;
  for (let c = Math.floor(start / chunkRows); c * chunkRows < end; c++) {
    const data = rows.rawChunk(c);
    const base = c * chunkRows;
    const to = Math.min(end, base + chunkRows) - base;
    for (let b = Math.max(start, base) - base; b < to; b += FLOAT_BLOCK_ROWS) block(data, base, b, Math.min(FLOAT_BLOCK_ROWS, to - b), c);
  }
}

// Offers the rows of a scored block whose float32 score may reach the heap's threshold, at their exact score.
class BlockFilter {
  private threshold: number;

  constructor(
    private readonly heap: TopKHeap,
    private readonly bound: number,
    private readonly scores: Float32Array,
    private readonly exactScore: (row: Float32Array) => number,
    private readonly dims: number,
  ) {
    this.threshold = heap.threshold;
  }

  offer(max: number, data: Float32Array, base: number, first: number, count: number): void {
    const { bound, scores, dims } = this;
    if (max + bound <= this.threshold) return; // written so that a NaN score falls through to the exact check
    for (let i = 0; i < count; i++) {
      if (scores[i]! + bound <= this.threshold) continue;
      const o = (first + i) * dims;
      const score = this.exactScore(data.subarray(o, o + dims));
      if (score > this.threshold) {
        this.heap.offer(score, base + first + i);
        this.threshold = this.heap.threshold;
      }
    }
  }
}
