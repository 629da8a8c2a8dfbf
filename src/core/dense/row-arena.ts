import { vectorKernels, wasmKernelsAvailable, type VectorKernels } from './kernels/vector-kernels.ts';
import { SCANNER_SLOTS } from './scanner-slots.ts';

/** Rows one float32 kernel call scores: few enough that the block's scores stay in the first-level cache. */
export const FLOAT_BLOCK_ROWS = 64;
const PAGE = 65536;
/** A WebAssembly (wasm32) memory holds at most 65,536 pages: 4 GiB. */
const MAX_PAGES = 65536;

/** What another thread needs to scan the same arena: its memory, shared, and its shape. */
export interface SharedRowArena {
  memory: WebAssembly.Memory;
  dimensions: number;
  chunkRows: number;
  chunkCount: number;
}

/** Where a scanner's kernel reads the query and writes a block's scores, and the kernels that do it. */
export interface ArenaScanner {
  kernels: VectorKernels;
  /** Byte offset of the float32 query (`dimensions` values). */
  queryAt: number;
  /** Byte offset of {@link FLOAT_BLOCK_ROWS} float32 scores. */
  outAt: number;
}

/**
 * Full-capacity float32 row chunks laid end to end in one WebAssembly memory of their own, followed by a scratch
 * area per scanning thread ({@link SCANNER_SLOTS}, as for compact vectors), so the SIMD kernel scores rows where
 * they lie instead of copying each block into its own memory first (that copy took as long as the arithmetic).
 * The memory is made at its final size and never grown,
 * so views of it stay valid; shared (a SharedArrayBuffer underneath) when the rows are to be scanned by several
 * threads. Only for rows a multiple of 16 floats wide (384, 768, 1,024…): the kernel reads whole 16-float steps.
 */
export class RowArena {
  readonly memory: WebAssembly.Memory;
  readonly dimensions: number;
  readonly chunkRows: number;
  readonly chunkCount: number;
  private readonly scratchAt: number;
  private readonly slotBytes: number;
  private readonly scanners = new Map<number, ArenaScanner>();

  private constructor(memory: WebAssembly.Memory, dimensions: number, chunkRows: number, chunkCount: number) {
    this.memory = memory;
    this.dimensions = dimensions;
    this.chunkRows = chunkRows;
    this.chunkCount = chunkCount;
    const layout = arenaLayout(dimensions, chunkRows, chunkCount);
    this.scratchAt = layout.scratchAt;
    this.slotBytes = layout.slotBytes;
    if (memory.buffer.byteLength < layout.bytes) throw new Error(`an arena of ${chunkCount} chunks needs ${layout.bytes} bytes; the memory has ${memory.buffer.byteLength}`);
  }

  /**
   * A zeroed arena for `chunkCount` chunks of `chunkRows` rows, or null where the kernel cannot scan it in place:
   * no WebAssembly SIMD (or no shared WebAssembly memory, when `shared`), a width not a multiple of 16, or more
   * than a WebAssembly memory can hold.
   */
  static allocate(dimensions: number, chunkRows: number, chunkCount: number, options: { shared?: boolean } = {}): RowArena | null {
    const shared = options.shared ?? false;
    if (dimensions % 16 !== 0 || chunkCount <= 0 || !wasmKernelsAvailable(shared)) return null;
    const pages = Math.ceil(arenaLayout(dimensions, chunkRows, chunkCount).bytes / PAGE);
    if (pages > MAX_PAGES) return null;
    try {
      const memory = shared ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }) : new WebAssembly.Memory({ initial: pages });
      return new RowArena(memory, dimensions, chunkRows, chunkCount);
    } catch {
      return null; // the engine refused the memory (address space): the rows stay in plain chunks
    }
  }

  /** The same arena in another thread, over the same shared memory. */
  static adopt(shared: SharedRowArena): RowArena {
    return new RowArena(shared.memory, shared.dimensions, shared.chunkRows, shared.chunkCount);
  }

  /** What {@link adopt} needs, for postMessage. */
  share(): SharedRowArena {
    return { memory: this.memory, dimensions: this.dimensions, chunkRows: this.chunkRows, chunkCount: this.chunkCount };
  }

  /** Byte offset of chunk `index`'s first row. */
  chunkOffset(index: number): number {
    return index * this.chunkRows * this.dimensions * 4;
  }

  /** A full-capacity view of chunk `index`. */
  chunk(index: number): Float32Array {
    if (!Number.isInteger(index) || index < 0 || index >= this.chunkCount) throw new Error(`chunk ${index} out of range (0..${this.chunkCount - 1})`);
    return new Float32Array(this.memory.buffer, this.chunkOffset(index), this.chunkRows * this.dimensions);
  }

  /** The kernels and scratch area of scanner `slot` (one per thread; each thread makes its own kernels). */
  scanner(slot: number): ArenaScanner {
    if (!Number.isInteger(slot) || slot < 0 || slot >= SCANNER_SLOTS) throw new Error(`scanner slot must be 0..${SCANNER_SLOTS - 1}, got ${slot}`);
    let scanner = this.scanners.get(slot);
    if (!scanner) {
      const queryAt = this.scratchAt + slot * this.slotBytes;
      scanner = { kernels: vectorKernels(this.memory), queryAt, outAt: queryAt + this.dimensions * 4 };
      this.scanners.set(slot, scanner);
    }
    return scanner;
  }
}

function arenaLayout(dimensions: number, chunkRows: number, chunkCount: number) {
  const scratchAt = chunkCount * chunkRows * dimensions * 4; // a multiple of 64: dimensions is a multiple of 16
  const slotBytes = dimensions * 4 + FLOAT_BLOCK_ROWS * 4;
  return { scratchAt, slotBytes, bytes: scratchAt + SCANNER_SLOTS * slotBytes };
}
