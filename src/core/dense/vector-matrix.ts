import type { EmbeddingModelInfo } from '../embedding/index.ts';
import { ChunkedRows, DEFAULT_CHUNK_ROWS } from './chunked-rows.ts';
import { RowArena, type SharedRowArena } from './row-arena.ts';

/** What another thread needs to search the same float32 rows: chunks in shared memory pass by reference. */
export interface SharedVectorMatrix {
  model: EmbeddingModelInfo;
  ids: readonly string[];
  chunkRows: number;
  rows: number;
  /** Full-capacity chunk buffers; the last one's rows past `rows` are unused. */
  chunks: readonly Float32Array[];
  /** The arena the chunks lie in, when they do (see {@link RowArena}). */
  arena?: SharedRowArena;
  /** The adopting thread's scratch slot in `arena`; without one it scans by copy, as over plain chunks. */
  scannerSlot?: number;
}

/** Options of a new {@link VectorMatrix}. */
export interface VectorMatrixOptions {
  /** The model whose vectors the matrix holds; its `dimensions` is the row width. */
  model: EmbeddingModelInfo;
  /** Rows per chunk; default 4,096. */
  chunkRows?: number;
}

/**
 * One L2-normalised float32 vector per document, in fixed-size chunks (see {@link ChunkedRows}), with the ids in
 * row order and the model that produced them. Memory is the raw float32 size plus the id strings.
 */
export class VectorMatrix {
  /** The model that produced every row. */
  readonly model: EmbeddingModelInfo;
  private rowStore: ChunkedRows;
  private readonly idList: string[] = [];
  private readonly rowById = new Map<string, number>();

  constructor(options: VectorMatrixOptions) {
    this.model = options.model;
    this.rowStore = new ChunkedRows(options.model.dimensions, options.chunkRows ?? DEFAULT_CHUNK_ROWS);
  }

  /** The rows. Exposed for scanning and persistence; append through {@link add}/{@link addBatch}. */
  get rows(): ChunkedRows {
    return this.rowStore;
  }

  /** Row width. */
  get dimensions(): number {
    return this.rows.dimensions;
  }

  /** Number of documents. */
  get size(): number {
    return this.rows.size;
  }

  /** Document ids in row order. */
  get ids(): readonly string[] {
    return this.idList;
  }

  /** Adds one document vector (normalised on the way in). Returns its row. Ids must be unique. */
  add(id: string, vector: ArrayLike<number>): number {
    if (vector.length !== this.dimensions) {
      throw new Error(`vector for "${id}" has ${vector.length} dimensions; the matrix holds ${this.dimensions}`);
    }
    this.claimId(id);
    return this.rows.append(vector);
  }

  /** Adds `ids.length` vectors given row-major in `vectors`. */
  addBatch(ids: readonly string[], vectors: ArrayLike<number>): void {
    if (vectors.length !== ids.length * this.dimensions) {
      throw new Error(`expected ${ids.length} × ${this.dimensions} values, got ${vectors.length}`);
    }
    const unique = new Set(ids);
    if (unique.size !== ids.length) throw new Error('duplicate document id in batch');
    for (const id of ids) if (this.rowById.has(id)) throw new Error(`document "${id}" is already in the matrix`);
    for (const id of ids) this.claimId(id);
    this.rows.append(vectors, ids.length);
  }

  /** Id of a row. */
  id(row: number): string {
    const id = this.idList[row];
    if (id === undefined) throw new Error(`row ${row} out of range (0..${this.size - 1})`);
    return id;
  }

  /** Row of a document id, or undefined. */
  rowOf(id: string): number | undefined {
    return this.rowById.get(id);
  }

  /** The stored (normalised) vector of a document, as a view; undefined when absent. */
  vectorOf(id: string): Float32Array | undefined {
    const row = this.rowById.get(id);
    return row === undefined ? undefined : this.rows.row(row);
  }

  /** Restores a matrix from persisted ids and chunks (see {@link ChunkedRows.fromChunks}). */
  static fromChunks(options: VectorMatrixOptions & { chunkRows: number }, ids: readonly string[], chunks: readonly Float32Array[]): VectorMatrix {
    const rows = ChunkedRows.fromChunks(options.model.dimensions, options.chunkRows, chunks);
    if (rows.size !== ids.length) throw new Error(`${ids.length} ids for ${rows.size} stored rows`);
    const matrix = new VectorMatrix(options);
    matrix.rowStore = rows;
    for (const id of ids) matrix.claimId(id);
    return matrix;
  }

  /** A matrix over the first `ids.length` rows of a filled arena (rows already normalised), adopted without copying. */
  static fromArena(options: VectorMatrixOptions, ids: readonly string[], arena: RowArena): VectorMatrix {
    const matrix = new VectorMatrix({ ...options, chunkRows: arena.chunkRows });
    matrix.rowStore = ChunkedRows.fromArena(arena, ids.length);
    for (const id of ids) matrix.claimId(id);
    return matrix;
  }

  /** What {@link adopt} needs, for postMessage (the rows are shared only if their chunks are in shared memory). */
  share(): SharedVectorMatrix {
    const { rows } = this;
    const chunks = Array.from({ length: rows.chunkCount }, (_, c) => rows.rawChunk(c));
    return { model: this.model, ids: this.ids, chunkRows: rows.chunkRows, rows: rows.size, chunks, ...(rows.arena && { arena: rows.arena.share() }) };
  }

  /** The same rows in another thread, without copying them; the adopted matrix cannot be appended to. */
  static adopt(shared: SharedVectorMatrix): VectorMatrix {
    const rows =
      shared.arena && shared.scannerSlot !== undefined
        ? ChunkedRows.adoptArena(RowArena.adopt(shared.arena), shared.rows, shared.scannerSlot)
        : ChunkedRows.adopt(shared.model.dimensions, shared.chunkRows, shared.chunks, shared.rows);
    if (rows.size !== shared.ids.length) throw new Error(`${shared.ids.length} ids for ${rows.size} shared rows`);
    const matrix = new VectorMatrix({ model: shared.model, chunkRows: shared.chunkRows });
    matrix.rowStore = rows;
    for (const id of shared.ids) matrix.claimId(id);
    return matrix;
  }

  private claimId(id: string): void {
    if (this.rowById.has(id)) throw new Error(`document "${id}" is already in the matrix`);
    this.rowById.set(id, this.idList.length);
    this.idList.push(id);
  }
}
