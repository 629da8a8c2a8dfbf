import { describeEmbeddingModel } from '../embedding/index.ts';
import { rowsOf, type ChunkRowReader, type EmbeddingSetRecord, type VectorChunk, type VectorStore } from '../storage/index.ts';
import { CompactVectors, type FloatRowSource } from './compact-vectors.ts';
import { MultiVectorStore } from './multi-vector-store.ts';
import { RowArena } from './row-arena.ts';
import { VectorMatrix } from './vector-matrix.ts';

/** Throws unless every document of the set is embedded (a partial set would silently miss documents). */
export function assertCompleteSet(set: EmbeddingSetRecord): void {
  if (set.complete) return;
  throw new Error(
    `Only ${set.rowsDone} of ${set.totalRows} documents are embedded with ${set.model.modelId}; ` +
      'resume embedding on the Embeddings page before searching with it.',
  );
}

/**
 * The pooled vectors of a complete set as a VectorMatrix. Where the SIMD kernel can scan rows in place, the stored
 * chunks are read one at a time into a {@link RowArena} made at the set's size (shared memory with `shared`);
 * elsewhere they are adopted as the matrix's own chunks (no copy, except the partial last chunk), or with `shared`
 * copied one at a time into SharedArrayBuffers. Either way memory holds the raw float32 size plus the ids, and at
 * most one stored chunk besides; with `shared`, other workers can adopt the rows.
 */
export async function loadVectorMatrix(store: VectorStore, set: EmbeddingSetRecord, options: { shared?: boolean } = {}): Promise<VectorMatrix> {
  assertCompleteSet(set);
  const dims = set.model.dimensions;
  const arena = RowArena.allocate(dims, set.chunkRows, Math.ceil(set.rowsDone / set.chunkRows), { shared: options.shared });
  const chunks =
    arena || options.shared
      ? await copiedChunks(store, set, (i, length) => (arena ? arena.chunk(i).subarray(0, length) : new Float32Array(new SharedArrayBuffer(length * 4))))
      : await store.getChunks(set.corpusId, set.modelKey);
  chunks.forEach((chunk, i) => {
    if (chunk.index !== i) throw new Error(`Chunk ${i} of the vectors of ${set.model.modelId} is missing; delete the set and embed again.`);
  });
  const ids: string[] = [];
  for (const chunk of chunks) for (const id of chunk.ids) ids.push(id);
  if (ids.length !== set.rowsDone) {
    throw new Error(`The set records ${set.rowsDone} vectors but ${ids.length} are stored; delete the set and embed again.`);
  }
  try {
    if (arena) {
      const short = chunks.findIndex((chunk, i) => i < chunks.length - 1 && chunk.ids.length !== set.chunkRows);
      if (short >= 0) throw new Error(`chunk ${short} has ${chunks[short]!.ids.length} rows; expected ${set.chunkRows}`);
      return VectorMatrix.fromArena({ model: set.model }, ids, arena);
    }
    return VectorMatrix.fromChunks({ model: set.model, chunkRows: set.chunkRows }, ids, chunks.map((c) => c.vectors));
  } catch (error) {
    throw new Error(`The stored vectors of ${describeEmbeddingModel(set.model)} cannot be read: ${(error as Error).message}`, { cause: error });
  }
}

// Each stored chunk copied into the buffer `target` gives as it is read: memory holds one stored chunk at a time.
async function copiedChunks(
  store: VectorStore,
  set: EmbeddingSetRecord,
  target: (index: number, length: number) => Float32Array,
): Promise<VectorChunk[]> {
  const chunks: VectorChunk[] = [];
  const dims = set.model.dimensions;
  const chunkCount = Math.ceil(set.rowsDone / set.chunkRows);
  for (let i = 0, rows = 0; rows < set.rowsDone; i++) {
    const chunk = await store.getChunk(set.corpusId, set.modelKey, i);
    if (!chunk || chunk.ids.length === 0) break; // reported as a missing chunk or a row count mismatch below
    if (i >= chunkCount || chunk.vectors.length !== chunk.ids.length * dims || chunk.ids.length > set.chunkRows) {
      throw new Error(
        `The stored vectors of ${describeEmbeddingModel(set.model)} cannot be read: chunk ${i} has ${chunk.vectors.length} values for ` +
          `${chunk.ids.length} ids; expected at most ${set.chunkRows} rows of ${dims}. Delete the set and embed again.`,
      );
    }
    const vectors = target(i, chunk.vectors.length);
    vectors.set(chunk.vectors);
    chunks.push({ ...chunk, vectors });
    rows += chunk.ids.length;
  }
  return chunks;
}

/**
 * The float32 rows of a stored set, read from storage for the rows asked: where rescoring reads when only the compact
 * form is in memory. Through the store's chunk readers where it has them, else a whole chunk per chunk asked. From
 * IndexedDB only the asked rows' bytes are read, all in one read of a Blob made of their slices of the chunks' stored
 * Blobs (a read per row costs an IPC round trip each); the chunks' readers, handles only, are kept for the next query.
 */
export function storedFloatRows(store: VectorStore, set: EmbeddingSetRecord): FloatRowSource {
  return new StoredChunks(store, set).floatRows;
}

/** A stored set's chunks, read through the store's chunk readers where it has them; light readers are kept. */
class StoredChunks {
  private readonly kept = new Map<number, Promise<ChunkRowReader>>();

  constructor(
    private readonly store: VectorStore,
    private readonly set: EmbeddingSetRecord,
  ) {}

  /** One whole chunk (through its reader, then kept, where the store has readers). */
  async chunk(index: number): Promise<{ ids: readonly string[]; vectors: Float32Array }> {
    if (!this.store.chunkRowReader) {
      const chunk = await this.store.getChunk(this.set.corpusId, this.set.modelKey, index);
      if (!chunk) throw this.missing(index);
      return chunk;
    }
    const reader = await this.open(index);
    return { ids: reader.ids, vectors: await reader.all() };
  }

  readonly floatRows: FloatRowSource = async (rows) => {
    const { chunkRows } = this.set;
    const byChunk = new Map<number, number[]>();
    for (const row of rows) {
      const index = Math.floor(row / chunkRows);
      let within = byChunk.get(index);
      if (!within) byChunk.set(index, (within = []));
      within.push(row % chunkRows);
    }
    const readers = new Map(await Promise.all([...byChunk.keys()].map(async (index) => [index, await this.open(index)] as const)));
    if ([...readers.values()].every((reader) => reader.bytes)) return this.readSlices(rows, readers);
    const read = new Map<number, Float32Array[]>();
    await Promise.all([...byChunk].map(async ([index, within]) => read.set(index, await readers.get(index)!.rows(within))));
    const taken = new Map<number, number>();
    return rows.map((row) => {
      const index = Math.floor(row / chunkRows);
      const at = taken.get(index) ?? 0;
      taken.set(index, at + 1);
      return read.get(index)![at]!;
    });
  };

  private open(index: number): Promise<ChunkRowReader> {
    const kept = this.kept.get(index);
    if (kept) return kept;
    const { store, set } = this;
    const opening = (
      store.chunkRowReader
        ? store.chunkRowReader(set.corpusId, set.modelKey, index)
        : store.getChunk(set.corpusId, set.modelKey, index).then(
            (chunk) => chunk && { ids: chunk.ids, light: false, all: async () => chunk.vectors, rows: async (rows: readonly number[]) => rowsOf(chunk.vectors, chunk.ids.length, rows) },
          )
    ).then((reader) => {
      if (!reader) throw this.missing(index);
      if (!reader.light) this.kept.delete(index);
      return reader;
    });
    this.kept.set(index, opening);
    opening.catch(() => this.kept.delete(index));
    return opening;
  }

  /** Every row asked in one read: a Blob made of the rows' slices of their chunks' stored bytes. */
  private async readSlices(rows: readonly number[], readers: Map<number, ChunkRowReader>): Promise<Float32Array[]> {
    const { chunkRows } = this.set;
    const dims = this.set.model.dimensions;
    const rowBytes = dims * 4;
    const slices = rows.map((row) => {
      const index = Math.floor(row / chunkRows);
      const bytes = readers.get(index)!.bytes!;
      const within = row % chunkRows;
      if ((within + 1) * rowBytes > bytes.size) throw new RangeError(`row ${within} is not within the ${bytes.size / rowBytes} rows of chunk ${index}`);
      return bytes.slice(within * rowBytes, (within + 1) * rowBytes);
    });
    const buffer = await new Blob(slices).arrayBuffer();
    return rows.map((_, i) => new Float32Array(buffer, i * rowBytes, dims));
  }

  private missing(index: number): Error {
    return new Error(`Chunk ${index} of the vectors of ${this.set.model.modelId} is missing; delete the set and embed again.`);
  }
}

/**
 * The compact form of a complete set, quantised chunk by chunk as it is read, so memory never holds more than
 * the compact form and one float32 chunk. Rescoring reads float32 rows back from storage (through the chunks'
 * readers opened here, where the store has them: a query then reads only its rows' bytes).
 */
export async function loadCompactVectors(store: VectorStore, set: EmbeddingSetRecord, signal?: AbortSignal): Promise<CompactVectors> {
  assertCompleteSet(set);
  const dims = set.model.dimensions;
  // Sized from the set record and filled row by row as chunks arrive; checked against the record at the end.
  const ids = new Array<string>(set.rowsDone);
  const chunks = new StoredChunks(store, set);
  const compact = CompactVectors.allocate(set.model, ids, { floatRows: chunks.floatRows });
  let rows = 0;
  for (let i = 0; rows < set.rowsDone; i++) {
    signal?.throwIfAborted();
    const chunk = await chunks.chunk(i);
    if (rows + chunk.ids.length > set.rowsDone || chunk.vectors.length !== chunk.ids.length * dims || (chunk.ids.length !== set.chunkRows && rows + chunk.ids.length < set.rowsDone)) {
      throw new Error(
        `The stored vectors of ${describeEmbeddingModel(set.model)} cannot be read: chunk ${i} has ${chunk.ids.length} rows and ${chunk.vectors.length} values; delete the set and embed again.`,
      );
    }
    compact.setRows(rows, chunk.vectors);
    chunk.ids.forEach((id, r) => (ids[rows + r] = id));
    rows += chunk.ids.length;
  }
  if (new Set(ids).size !== ids.length) throw new Error(`The stored vectors of ${set.model.modelId} repeat a document id; delete the set and embed again.`);
  return compact;
}

/** The token-level vectors of a complete set that has them, as a MultiVectorStore (pooling `token`). */
export async function loadTokenStore(store: VectorStore, set: EmbeddingSetRecord): Promise<MultiVectorStore> {
  assertCompleteSet(set);
  if (!set.tokens) throw new Error(`The vectors of ${set.model.modelId} were stored without token-level embeddings.`);
  const tokens = new MultiVectorStore({ model: { ...set.model, pooling: 'token' } });
  const dims = set.model.dimensions;
  for (const batch of await store.getTokenBatches(set.corpusId, set.modelKey)) {
    let offset = 0;
    batch.ids.forEach((id, i) => {
      const count = batch.counts[i]!;
      tokens.add(id, { vectors: batch.vectors.subarray(offset, offset + count * dims), count });
      offset += count * dims;
    });
  }
  if (tokens.size !== set.rowsDone) {
    throw new Error(`${tokens.size} of ${set.rowsDone} documents have stored token vectors; delete the set and embed again.`);
  }
  return tokens;
}
