import type { ChunkRowReader, EmbeddingProgressUpdate, EmbeddingSetRecord, TokenBatch, VectorChunk, VectorStore } from './vector-store.ts';

interface MemorySet {
  record: EmbeddingSetRecord;
  chunks: Map<number, VectorChunk>;
  tokens: Map<number, TokenBatch>;
}

/** VectorStore in memory, for the CLI and tests. Stored arrays are copies, as IndexedDB's would be. */
export class MemoryVectorStore implements VectorStore {
  private readonly sets = new Map<string, MemorySet>();

  async listSets(corpusId: string): Promise<EmbeddingSetRecord[]> {
    return [...this.sets.values()]
      .filter((s) => s.record.corpusId === corpusId)
      .map((s) => ({ ...s.record }))
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  async getSet(corpusId: string, modelKey: string): Promise<EmbeddingSetRecord | undefined> {
    const set = this.sets.get(key(corpusId, modelKey));
    return set ? { ...set.record } : undefined;
  }

  async createSet(record: EmbeddingSetRecord): Promise<void> {
    const k = key(record.corpusId, record.modelKey);
    if (this.sets.has(k)) throw new Error(`An embedding set for ${record.modelKey} already exists in corpus ${record.corpusId}`);
    this.sets.set(k, { record: { ...record }, chunks: new Map(), tokens: new Map() });
  }

  async writeChunk(
    corpusId: string,
    modelKey: string,
    chunk: VectorChunk,
    tokens: readonly TokenBatch[],
    progress: EmbeddingProgressUpdate,
  ): Promise<void> {
    const set = this.sets.get(key(corpusId, modelKey));
    if (!set) throw new Error(`No embedding set ${modelKey} in corpus ${corpusId}; it may have been deleted.`);
    set.chunks.set(chunk.index, { index: chunk.index, ids: [...chunk.ids], vectors: chunk.vectors.slice() });
    for (const t of tokens) set.tokens.set(t.startRow, { ...t, ids: [...t.ids], counts: t.counts.slice(), vectors: t.vectors.slice() });
    const { bytesAdded, ...rest } = progress;
    set.record = { ...set.record, ...rest, bytes: set.record.bytes + bytesAdded, updatedAt: Date.now() };
  }

  async getChunk(corpusId: string, modelKey: string, index: number): Promise<VectorChunk | undefined> {
    return this.sets.get(key(corpusId, modelKey))?.chunks.get(index);
  }

  async chunkRowReader(corpusId: string, modelKey: string, index: number): Promise<ChunkRowReader | undefined> {
    const chunk = this.sets.get(key(corpusId, modelKey))?.chunks.get(index);
    // the vectors are in memory already: keeping the reader holds nothing more
    return chunk && { ids: chunk.ids, light: true, all: async () => chunk.vectors, rows: async (rows) => rowsOf(chunk.vectors, chunk.ids.length, rows) };
  }

  async getChunks(corpusId: string, modelKey: string): Promise<VectorChunk[]> {
    const chunks = this.sets.get(key(corpusId, modelKey))?.chunks;
    return chunks ? [...chunks.values()].sort((a, b) => a.index - b.index) : [];
  }

  async getTokenBatches(corpusId: string, modelKey: string): Promise<TokenBatch[]> {
    const tokens = this.sets.get(key(corpusId, modelKey))?.tokens;
    return tokens ? [...tokens.values()].sort((a, b) => a.startRow - b.startRow) : [];
  }

  async deleteSet(corpusId: string, modelKey: string): Promise<void> {
    this.sets.delete(key(corpusId, modelKey));
  }

  async deleteCorpusSets(corpusId: string): Promise<void> {
    for (const [k, set] of this.sets) if (set.record.corpusId === corpusId) this.sets.delete(k);
  }
}

/** Rows `rows` of `count` rows laid out one after another in `vectors` (views, not copies). */
export function rowsOf(vectors: Float32Array, count: number, rows: readonly number[]): Float32Array[] {
  const dims = count > 0 ? vectors.length / count : 0;
  return rows.map((row) => {
    if (!Number.isInteger(row) || row < 0 || row >= count) throw new RangeError(`row ${row} is not within the chunk's ${count} rows`);
    return vectors.subarray(row * dims, (row + 1) * dims);
  });
}

function key(corpusId: string, modelKey: string): string {
  return JSON.stringify([corpusId, modelKey]);
}
