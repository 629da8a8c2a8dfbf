import type { IDBPDatabase } from 'idb';
import {
  VectorStorageFullError,
  rowsOf,
  type ChunkRowReader,
  type EmbeddingProgressUpdate,
  type EmbeddingSetRecord,
  type TokenBatch,
  type VectorChunk,
  type VectorStore,
} from '../core/index.ts';
import { corpusKeyRange, type WorkbenchDb, type WorkbenchWriteTx } from './database.ts';
import { isQuotaError } from './quota.ts';
import type { StoredPooledChunk, StoredTokenChunk } from './vectors-schema.ts';

/** VectorStore over IndexedDB (`embeddingSets` and `vectorChunks`). */
export class IdbVectorStore implements VectorStore {
  constructor(private readonly db: IDBPDatabase<WorkbenchDb>) {}

  async listSets(corpusId: string): Promise<EmbeddingSetRecord[]> {
    const sets = await this.db.getAll('embeddingSets', corpusKeyRange(corpusId));
    return sets.sort((a, b) => b.createdAt - a.createdAt);
  }

  getSet(corpusId: string, modelKey: string): Promise<EmbeddingSetRecord | undefined> {
    return this.db.get('embeddingSets', [corpusId, modelKey]);
  }

  async createSet(record: EmbeddingSetRecord): Promise<void> {
    try {
      const tx = this.db.transaction('embeddingSets', 'readwrite');
      if (await tx.store.get([record.corpusId, record.modelKey])) {
        throw new Error(`An embedding set for ${record.model.modelId} already exists in this corpus`);
      }
      await Promise.all([tx.store.put(record), tx.done]);
    } catch (error) {
      if (isQuotaError(error)) throw new VectorStorageFullError(0);
      throw error;
    }
  }

  async writeChunk(
    corpusId: string,
    modelKey: string,
    chunk: VectorChunk,
    tokens: readonly TokenBatch[],
    progress: EmbeddingProgressUpdate,
  ): Promise<void> {
    let stored = 0;
    try {
      const tx = this.db.transaction(['embeddingSets', 'vectorChunks'], 'readwrite');
      const sets = tx.objectStore('embeddingSets');
      const chunks = tx.objectStore('vectorChunks');
      const set = await sets.get([corpusId, modelKey]);
      if (!set) throw new Error('The embedding set was deleted while it was being written.');
      stored = set.rowsDone;
      const pooled: StoredPooledChunk = { corpusId, modelKey, chunk: chunk.index, kind: 'pooled', ids: chunk.ids, vectors: blobOf(chunk.vectors) };
      const requests: Promise<unknown>[] = [chunks.put(pooled)];
      for (const batch of tokens) {
        const row: StoredTokenChunk = {
          corpusId,
          modelKey,
          chunk: -batch.startRow - 1,
          kind: 'tokens',
          ids: batch.ids,
          counts: exact(batch.counts),
          vectors: exact(batch.vectors),
        };
        requests.push(chunks.put(row));
      }
      const { bytesAdded, ...rest } = progress;
      requests.push(sets.put({ ...set, ...rest, bytes: set.bytes + bytesAdded, updatedAt: Date.now() }));
      for (const request of [...requests, tx.done]) request.catch(() => {}); // rejections are handled below
      try {
        await Promise.all(requests);
      } catch (error) {
        abortQuietly(tx); // all or nothing, even if the browser would let the other requests commit
        throw error;
      }
      await tx.done;
    } catch (error) {
      if (isQuotaError(error)) throw new VectorStorageFullError(stored);
      throw error;
    }
  }

  async getChunk(corpusId: string, modelKey: string, index: number): Promise<VectorChunk | undefined> {
    const row = await this.db.get('vectorChunks', [corpusId, modelKey, index]);
    return row && row.kind === 'pooled' ? { index: row.chunk, ids: row.ids, vectors: await floats(row.vectors) } : undefined;
  }

  async chunkRowReader(corpusId: string, modelKey: string, index: number): Promise<ChunkRowReader | undefined> {
    const row = await this.db.get('vectorChunks', [corpusId, modelKey, index]);
    if (!row || row.kind !== 'pooled') return undefined;
    const { ids, vectors } = row;
    if (!(vectors instanceof Blob)) return { ids, light: false, all: async () => vectors, rows: async (rows) => rowsOf(vectors, ids.length, rows) };
    const rowBytes = ids.length > 0 ? vectors.size / ids.length : 0;
    return {
      ids,
      light: true,
      bytes: vectors,
      all: () => floats(vectors),
      rows: async (rows) => {
        // Many rows of one chunk: one read of it all costs less than a read per row.
        if (rows.length * 8 >= ids.length) return rowsOf(await floats(vectors), ids.length, rows);
        return Promise.all(
          rows.map(async (r) => {
            if (!Number.isInteger(r) || r < 0 || r >= ids.length) throw new RangeError(`row ${r} is not within the chunk's ${ids.length} rows`);
            return new Float32Array(await vectors.slice(r * rowBytes, (r + 1) * rowBytes).arrayBuffer());
          }),
        );
      },
    };
  }

  async getChunks(corpusId: string, modelKey: string): Promise<VectorChunk[]> {
    const rows = await this.db.getAll('vectorChunks', IDBKeyRange.bound([corpusId, modelKey, 0], [corpusId, modelKey, Infinity]));
    const pooled = rows.flatMap((row) => (row.kind === 'pooled' ? [row] : []));
    return Promise.all(pooled.map(async (row) => ({ index: row.chunk, ids: row.ids, vectors: await floats(row.vectors) })));
  }

  async getTokenBatches(corpusId: string, modelKey: string): Promise<TokenBatch[]> {
    const rows = await this.db.getAll('vectorChunks', IDBKeyRange.bound([corpusId, modelKey, -Infinity], [corpusId, modelKey, -1]));
    return rows
      .flatMap((row) => (row.kind === 'tokens' ? [{ startRow: -row.chunk - 1, ids: row.ids, counts: row.counts, vectors: row.vectors }] : []))
      .sort((a, b) => a.startRow - b.startRow);
  }

  async deleteSet(corpusId: string, modelKey: string): Promise<void> {
    const tx = this.db.transaction(['embeddingSets', 'vectorChunks'], 'readwrite');
    await Promise.all([
      tx.objectStore('embeddingSets').delete([corpusId, modelKey]),
      tx.objectStore('vectorChunks').delete(IDBKeyRange.bound([corpusId, modelKey, -Infinity], [corpusId, modelKey, Infinity])),
      tx.done,
    ]);
  }

  async deleteCorpusSets(corpusId: string): Promise<void> {
    const tx = this.db.transaction([...VECTOR_STORES], 'readwrite');
    await Promise.all([deleteCorpusVectorRows(tx as unknown as WorkbenchWriteTx, corpusId), tx.done]);
  }
}

/** The stores that hold embedding sets and their vectors. */
export const VECTOR_STORES = ['embeddingSets', 'vectorChunks'] as const;

/** Deletes a corpus's embedding sets and vectors within `tx` (which spans VECTOR_STORES). */
export function deleteCorpusVectorRows(tx: WorkbenchWriteTx, corpusId: string): Promise<unknown> {
  const range = corpusKeyRange(corpusId);
  return Promise.all([tx.objectStore('embeddingSets').delete(range), tx.objectStore('vectorChunks').delete(range)]);
}

function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // already finished or aborted
  }
}

/** The bytes of `view` alone, as a Blob (a Blob of a view copies only the view's bytes; shared memory is copied out first). */
function blobOf(view: Float32Array): Blob {
  return new Blob([(view.buffer instanceof ArrayBuffer ? view : view.slice()) as Float32Array<ArrayBuffer>]);
}

/** A stored chunk's vectors as floats (read from its Blob, or as stored before Blobs). */
async function floats(vectors: Blob | Float32Array): Promise<Float32Array> {
  return vectors instanceof Blob ? new Float32Array(await vectors.arrayBuffer()) : vectors;
}

// IndexedDB stores a view's whole underlying buffer; store only the viewed bytes.
function exact<T extends Float32Array | Int32Array>(view: T): T {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? view : (view.slice() as T);
}
