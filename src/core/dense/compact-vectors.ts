import type { EmbeddingModelInfo } from '../embedding/index.ts';
import { vectorKernels, type KernelChoice, type VectorKernels } from './kernels/vector-kernels.ts';
import { SCANNER_SLOTS } from './scanner-slots.ts';
import type { VectorMatrix } from './vector-matrix.ts';

/** Rows one kernel call scores; its int32 results are what the scratch area of a scanner holds. */
export const BLOCK_ROWS = 1024;
const PAGE = 65536;

/** The float32 rows that rescoring reads: in memory, or fetched from storage. Rows are given in increasing order. */
export type FloatRowSource = (rows: readonly number[]) => Float32Array[] | Promise<Float32Array[]>;

/** What another thread needs to search the same vectors: the memory is shared, nothing is copied. */
export interface SharedCompactVectors {
  model: EmbeddingModelInfo;
  ids: readonly string[];
  memory: WebAssembly.Memory;
}

/** Options of {@link CompactVectors.allocate}. */
export interface CompactVectorsOptions {
  /** Put the codes in shared memory (a SharedArrayBuffer) so workers can scan them; default when available. */
  shared?: boolean;
  /** Which kernels scan; default WebAssembly SIMD when available. */
  kernels?: KernelChoice;
  /** Where rescoring reads float32 rows; default the dequantised int8 rows (approximate). */
  floatRows?: FloatRowSource;
  /** The scratch slot this thread's searches use unless told otherwise; default 0 (the thread that made the set). */
  scannerSlot?: number;
}

function roundUp(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

/** Whether this thread may put vectors in shared memory (cross-origin isolated page, worker or Node). */
export function canShareMemory(): boolean {
  if (typeof SharedArrayBuffer === 'undefined') return false;
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return isolated !== false;
}

/**
 * The compact form of an embedding set: per row, int8 codes of the L2-normalised vector with one float32 scale
 * (code = round(x / scale), scale = max|x| / 127), and the sign bits for a Hamming first pass. One row costs
 * `dimensions` + `dimensions / 8` + 4 bytes (436 at 384 dimensions) instead of 4 × `dimensions` (1,536).
 * Everything lives in one WebAssembly memory, laid out as: scanner scratch areas, int8 codes, sign bits, scales.
 * Rows are zero-padded (codes to 64 bytes, bits to 16) so the SIMD kernels need no remainder loop.
 */
export class CompactVectors {
  readonly model: EmbeddingModelInfo;
  readonly ids: readonly string[];
  readonly memory: WebAssembly.Memory;
  readonly kernels: VectorKernels;
  /** Bytes of int8 codes per row (dimensions rounded up to 64). */
  readonly stride: number;
  /** Bytes of sign bits per row (dimensions / 8 rounded up to 16). */
  readonly bitStride: number;
  readonly codesOffset: number;
  readonly bitsOffset: number;
  readonly scalesOffset: number;
  readonly slotBytes: number;
  floatRows: FloatRowSource;
  /** Scratch slot of this thread's searches: threads sharing the memory each need their own. */
  readonly scannerSlot: number;
  private rowById: Map<string, number> | null = null;

  private constructor(model: EmbeddingModelInfo, ids: readonly string[], memory: WebAssembly.Memory, options: CompactVectorsOptions) {
    this.model = model;
    this.ids = ids;
    this.memory = memory;
    const layout = CompactVectors.layout(model.dimensions, ids.length);
    this.stride = layout.stride;
    this.bitStride = layout.bitStride;
    this.slotBytes = layout.slotBytes;
    this.codesOffset = layout.codesOffset;
    this.bitsOffset = layout.bitsOffset;
    this.scalesOffset = layout.scalesOffset;
    if (memory.buffer.byteLength < layout.total) throw new Error(`memory of ${memory.buffer.byteLength} bytes cannot hold ${ids.length} rows`);
    this.kernels = vectorKernels(memory, options.kernels);
    this.floatRows = options.floatRows ?? ((rows) => rows.map((row) => this.dequantized(row)));
    this.scannerSlot = options.scannerSlot ?? 0;
    this.slotOffset(this.scannerSlot); // checks the slot
  }

  private static layout(dimensions: number, rows: number) {
    const stride = roundUp(dimensions, 64); // the int8 kernel steps 64 bytes at a time
    const bitStride = roundUp(Math.ceil(dimensions / 8), 16);
    // A slot: the int16 query, the query's sign bits, one block of 32-bit results.
    const slotBytes = roundUp(stride * 2 + bitStride + BLOCK_ROWS * 4, 64);
    const codesOffset = SCANNER_SLOTS * slotBytes;
    const bitsOffset = roundUp(codesOffset + rows * stride, 64);
    const scalesOffset = roundUp(bitsOffset + rows * bitStride, 64);
    const total = roundUp(scalesOffset + rows * 4, 64);
    return { stride, bitStride, slotBytes, codesOffset, bitsOffset, scalesOffset, total };
  }

  /**
   * Room for `ids.length` rows (all zero until {@link setRows}). The ids array is kept, not copied: a loader may
   * fill it as rows arrive.
   */
  static allocate(model: EmbeddingModelInfo, ids: readonly string[], options: CompactVectorsOptions = {}): CompactVectors {
    const known = ids.filter((id) => id !== undefined); // skips the holes of an array still to be filled
    if (new Set(known).size !== known.length) throw new Error('duplicate document id in the vector set');
    const pages = Math.ceil(CompactVectors.layout(model.dimensions, ids.length).total / PAGE);
    if (pages > 65536) throw new Error(`${ids.length} rows of ${model.dimensions} dimensions do not fit in 4 GiB of compact vectors`);
    const shared = options.shared ?? canShareMemory();
    const memory = shared ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }) : new WebAssembly.Memory({ initial: pages });
    return new CompactVectors(model, ids, memory, options);
  }

  /** The compact form of a float32 matrix; rescoring reads the matrix's own rows unless told otherwise. */
  static fromMatrix(matrix: VectorMatrix, options: CompactVectorsOptions = {}): CompactVectors {
    const compact = CompactVectors.allocate(matrix.model, matrix.ids, { floatRows: (rows) => rows.map((row) => matrix.rows.row(row)), ...options });
    const { rows } = matrix;
    for (let c = 0; c < rows.chunkCount; c++) compact.setRows(c * rows.chunkRows, rows.chunk(c));
    return compact;
  }

  /** The same vectors in another thread (over the same shared memory). */
  static adopt(shared: SharedCompactVectors, options: Omit<CompactVectorsOptions, 'shared'> = {}): CompactVectors {
    return new CompactVectors(shared.model, shared.ids, shared.memory, options);
  }

  /** What {@link adopt} needs, for postMessage. */
  share(): SharedCompactVectors {
    return { model: this.model, ids: this.ids, memory: this.memory };
  }

  get size(): number {
    return this.ids.length;
  }

  get dimensions(): number {
    return this.model.dimensions;
  }

  /** Bytes of the memory holding codes, bits, scales and scratch. */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Quantises `values` (rows of L2-normalised floats, row-major) into rows `first`, `first + 1`, …. */
  setRows(first: number, values: ArrayLike<number>): void {
    const dims = this.dimensions;
    const count = values.length / dims;
    if (!Number.isInteger(count) || first < 0 || first + count > this.size) {
      throw new Error(`${values.length} values are not whole rows of ${dims} within the ${this.size} rows`);
    }
    const codes = new Int8Array(this.memory.buffer, this.codesOffset + first * this.stride, count * this.stride);
    const bits = new Uint8Array(this.memory.buffer, this.bitsOffset + first * this.bitStride, count * this.bitStride);
    const scales = new Float32Array(this.memory.buffer, this.scalesOffset + first * 4, count);
    bits.fill(0);
    for (let r = 0; r < count; r++) {
      const src = r * dims;
      let max = 0;
      for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(values[src + j]!));
      const scale = max > 0 ? max / 127 : 0;
      scales[r] = scale;
      const inverse = max > 0 ? 127 / max : 0;
      const dst = r * this.stride;
      const bitDst = r * this.bitStride;
      for (let j = 0; j < dims; j++) {
        const v = values[src + j]!;
        // Math.round(x) as floor(x + 128.5) − 128 (|x| ≤ 127, so a truncation of a positive number): twice as fast.
        // They differ only within 2⁻⁴⁵ of a half step, where x + 128.5 rounds up; the code is then off by half a
        // step plus that, inside the bound searchCompactExact allows (½ + 2⁻¹⁷ of a step).
        codes[dst + j] = ((v * inverse + 128.5) | 0) - 128;
        if (v > 0) bits[bitDst + (j >> 3)]! |= 1 << (j & 7);
      }
    }
  }

  /** Per-row scales (a view into the memory). */
  scales(): Float32Array {
    return new Float32Array(this.memory.buffer, this.scalesOffset, this.size);
  }

  /** The int8 row times its scale: the vector as the compact form knows it. */
  dequantized(row: number): Float32Array {
    if (!Number.isInteger(row) || row < 0 || row >= this.size) throw new Error(`row ${row} out of range (0..${this.size - 1})`);
    const codes = new Int8Array(this.memory.buffer, this.codesOffset + row * this.stride, this.dimensions);
    const scale = new Float32Array(this.memory.buffer, this.scalesOffset + row * 4, 1)[0]!;
    return Float32Array.from(codes, (c) => c * scale);
  }

  /** Id of a row. */
  id(row: number): string {
    const id = this.ids[row];
    if (id === undefined) throw new Error(`row ${row} out of range (0..${this.size - 1})`);
    return id;
  }

  /** Row of a document id, or undefined (the lookup table is built on first use). */
  rowOf(id: string): number | undefined {
    if (!this.rowById) this.rowById = new Map(this.ids.map((docId, row) => [docId, row]));
    return this.rowById.get(id);
  }

  /** Byte offset of scanner slot `slot`'s scratch area. */
  slotOffset(slot: number): number {
    if (!Number.isInteger(slot) || slot < 0 || slot >= SCANNER_SLOTS) throw new Error(`scanner slot must be 0..${SCANNER_SLOTS - 1}, got ${slot}`);
    return slot * this.slotBytes;
  }
}
