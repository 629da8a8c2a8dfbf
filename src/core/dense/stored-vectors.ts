import { describeEmbeddingModel } from '../embedding/index.ts';
import type { EmbeddingSetRecord, VectorChunk, VectorStore } from '../storage/index.ts';
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
 * The float32 rows of a stored set, read from storage for the rows asked (each chunk holding one read once):
 * where rescoring reads when only the compact form is in memory.
 */
export function storedFloatRows(store: VectorStore, set: EmbeddingSetRecord): FloatRowSource {
  const dims = set.model.dimensions;
  return async (rows) => {
    const chunks = new Map<number, Promise<Float32Array>>();
    for (const row of rows) {
      const index = Math.floor(row / set.chunkRows);
      if (!chunks.has(index)) {
        chunks.set(
          index,
          store.getChunk(set.corpusId, set.modelKey, index).then((chunk) => {
            if (!chunk) throw new Error(`Chunk ${index} of the vectors of ${set.model.modelId} is missing; delete the set and embed again.`);
            return chunk.vectors;
          }),
        );
      }
    }
    return Promise.all(
      rows.map(async (row) => {
        const vectors = await chunks.get(Math.floor(row / set.chunkRows))!;
        const at = (row % set.chunkRows) * dims;
        return vectors.subarray(at, at + dims);
      }),
    );
  };
}

/**
 * The compact form of a complete set, quantised chunk by chunk as it is read, so memory never holds more than
 * the compact form and one float32 chunk. Rescoring reads float32 rows back from storage.
 */
export async function loadCompactVectors(store: VectorStore, set: EmbeddingSetRecord, signal?: AbortSignal): Promise<CompactVectors> {
  assertCompleteSet(set);
  const dims = set.model.dimensions;
  // Sized from the set record and filled row by row as chunks arrive; checked against the record at the end.
  const ids = new Array<string>(set.rowsDone);
  const compact = CompactVectors.allocate(set.model, ids, { floatRows: storedFloatRows(store, set) });
  let rows = 0;
  for (let i = 0; rows < set.rowsDone; i++) {
    signal?.throwIfAborted();
    const chunk = await store.getChunk(set.corpusId, set.modelKey, i);
    if (!chunk) throw new Error(`Chunk ${i} of the vectors of ${set.model.modelId} is missing; delete the set and embed again.`);
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
