import type { RowArena } from './row-arena.ts';

/** Default rows per chunk: 4,096 × 384 float32 = 6 MiB per chunk. */
export const DEFAULT_CHUNK_ROWS = 4096;

/** Whether `buffer` is a SharedArrayBuffer (false where the global does not exist: a page that is not cross-origin isolated). */
export function isSharedBuffer(buffer: ArrayBufferLike): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer;
}

/**
 * Append-only float32 rows of fixed width, kept in fixed-size chunks (one Float32Array per chunk, each allocated
 * at full capacity), so a large matrix never needs one huge allocation and storage can write chunk by chunk.
 * Rows are L2-normalised on the way in (in float64); an all-zero row stays zero.
 */
export class ChunkedRows {
  /** Values per row. */
  readonly dimensions: number;
  /** Rows per chunk. */
  readonly chunkRows: number;
  private readonly chunks: Float32Array[] = [];
  private rows = 0;
  /** Set on rows adopted from another thread: their last chunk's spare room is that thread's too. */
  private readOnly = false;
  private arenaOf: RowArena | null = null;
  private slot = 0;

  constructor(dimensions: number, chunkRows = DEFAULT_CHUNK_ROWS) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error(`dimensions must be a positive integer, got ${dimensions}`);
    if (!Number.isInteger(chunkRows) || chunkRows <= 0) throw new Error(`chunkRows must be a positive integer, got ${chunkRows}`);
    this.dimensions = dimensions;
    this.chunkRows = chunkRows;
  }

  /** Number of rows stored. */
  get size(): number {
    return this.rows;
  }

  /** The WebAssembly memory every chunk lies in, where the SIMD kernel scores rows in place; null for plain chunks. */
  get arena(): RowArena | null {
    return this.arenaOf;
  }

  /** This thread's scratch slot in {@link arena} (0 for the thread that made it). */
  get scannerSlot(): number {
    return this.slot;
  }

  /** Number of chunks in use. */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** Bytes held by the chunk buffers (the allocated capacity, not only the filled part). */
  get byteLength(): number {
    let bytes = 0;
    for (const chunk of this.chunks) bytes += chunk.byteLength;
    return bytes;
  }

  /** Appends `count` rows read from `values` at `offset` (row-major), normalising each. Returns the first new row index. */
  append(values: ArrayLike<number>, count = 1, offset = 0): number {
    if (this.readOnly) throw new Error('these rows are shared with another thread and cannot be appended to');
    const dims = this.dimensions;
    if (offset + count * dims > values.length) {
      throw new Error(`expected ${count} rows of ${dims} values, got ${values.length - offset} values`);
    }
    const first = this.rows;
    for (let r = 0; r < count; r++) {
      const at = this.rows % this.chunkRows;
      if (at === 0) {
        this.chunks.push(new Float32Array(this.chunkRows * dims));
        this.arenaOf = null; // this chunk lies outside the arena: every chunk is scanned by copy from here on
      }
      const chunk = this.chunks[this.chunks.length - 1];
      const src = offset + r * dims;
      let sumSquares = 0;
      for (let j = 0; j < dims; j++) sumSquares += values[src + j] * values[src + j];
      const scale = sumSquares > 0 ? 1 / Math.sqrt(sumSquares) : 0;
      const dst = at * dims;
      for (let j = 0; j < dims; j++) chunk[dst + j] = values[src + j] * scale;
      this.rows++;
    }
    return first;
  }

  /** A view (no copy) of one row. */
  row(index: number): Float32Array {
    this.checkRow(index);
    const at = (index % this.chunkRows) * this.dimensions;
    return this.chunks[Math.floor(index / this.chunkRows)].subarray(at, at + this.dimensions);
  }

  /** A view of the filled part of one chunk: what storage persists. */
  chunk(index: number): Float32Array {
    if (!Number.isInteger(index) || index < 0 || index >= this.chunks.length) {
      throw new Error(`chunk ${index} out of range (0..${this.chunks.length - 1})`);
    }
    return this.chunks[index].subarray(0, this.rowsInChunk(index) * this.dimensions);
  }

  /** The full-capacity buffer of one chunk, for scanning loops (only the first rowsInChunk rows are valid). */
  rawChunk(index: number): Float32Array {
    return this.chunks[index];
  }

  /** Rows filled in chunk `index`. */
  rowsInChunk(index: number): number {
    return Math.min(this.chunkRows, this.rows - index * this.chunkRows);
  }

  /**
   * Restores rows from persisted chunks (as returned by {@link chunk}, rows already normalised). Every chunk but
   * the last must be full; full chunks are adopted without copying, a partial last chunk is copied into a
   * full-capacity buffer so appending can continue (a shared one when the chunk is in shared memory).
   */
  static fromChunks(dimensions: number, chunkRows: number, chunks: readonly Float32Array[]): ChunkedRows {
    const store = new ChunkedRows(dimensions, chunkRows);
    const full = chunkRows * dimensions;
    chunks.forEach((chunk, i) => {
      const last = i === chunks.length - 1;
      if (chunk.length % dimensions !== 0 || chunk.length > full || (!last && chunk.length !== full) || chunk.length === 0) {
        throw new Error(
          `chunk ${i} has ${chunk.length} values; expected ${last ? `1..${chunkRows}` : chunkRows} rows of ${dimensions}`,
        );
      }
      if (chunk.length === full) {
        store.chunks.push(chunk);
      } else {
        const copy = new Float32Array(isSharedBuffer(chunk.buffer) ? new SharedArrayBuffer(full * 4) : new ArrayBuffer(full * 4));
        copy.set(chunk);
        store.chunks.push(copy);
      }
      store.rows += chunk.length / dimensions;
    });
    return store;
  }

  /**
   * The first `rows` rows of an arena whose chunks have been filled (already normalised), adopted without copying;
   * rows can be appended until its last chunk is full.
   */
  static fromArena(arena: RowArena, rows: number): ChunkedRows {
    const store = new ChunkedRows(arena.dimensions, arena.chunkRows);
    if (!Number.isInteger(rows) || rows <= 0 || Math.ceil(rows / arena.chunkRows) !== arena.chunkCount) {
      throw new Error(`${arena.chunkCount} chunks cannot hold exactly ${rows} rows of ${arena.chunkRows} a chunk`);
    }
    for (let c = 0; c < arena.chunkCount; c++) store.chunks.push(arena.chunk(c));
    store.rows = rows;
    store.arenaOf = arena;
    return store;
  }

  /** The rows of another thread's arena (see {@link fromArena}), scanned with scratch slot `slot`; read-only. */
  static adoptArena(arena: RowArena, rows: number, slot: number): ChunkedRows {
    arena.scanner(slot); // checks the slot
    const store = ChunkedRows.fromArena(arena, rows);
    store.slot = slot;
    store.readOnly = true;
    return store;
  }

  /**
   * The same rows over another thread's full-capacity chunks (as {@link rawChunk} gives them), without copying;
   * they cannot be appended to.
   */
  static adopt(dimensions: number, chunkRows: number, chunks: readonly Float32Array[], rows: number): ChunkedRows {
    const store = new ChunkedRows(dimensions, chunkRows);
    if (!Number.isInteger(rows) || rows < 0 || chunks.length !== Math.ceil(rows / chunkRows)) {
      throw new Error(`${chunks.length} chunks cannot hold exactly ${rows} rows of ${chunkRows} a chunk`);
    }
    chunks.forEach((chunk, i) => {
      if (chunk.length !== chunkRows * dimensions) throw new Error(`chunk ${i} has ${chunk.length} values; expected ${chunkRows} rows of ${dimensions}`);
      store.chunks.push(chunk);
    });
    store.rows = rows;
    store.readOnly = true;
    return store;
  }

  private checkRow(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.rows) {
      throw new Error(`row ${index} out of range (0..${this.rows - 1})`);
    }
  }
}
