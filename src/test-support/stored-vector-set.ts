// A stored embedding set of random unit vectors, for the tests of loading and sharing vectors.
import { MemoryVectorStore, type EmbeddingModelInfo, type EmbeddingSetRecord } from '../core/index.ts';
import { randomRows, seededRandom } from './random-vectors.ts';

/** The model of {@link storedSet}'s vectors (the dense tests' `testModel(24)`). */
export const storedSetModel: EmbeddingModelInfo = { modelId: 'test-model', dtype: 'fp32', pooling: 'mean', dimensions: 24, prefixes: { query: '', passage: '' } };

/**
 * A complete stored set of `rows` random unit vectors of 24 dimensions ({@link storedSetModel}; `dims` for another
 * width), in chunks of 16 rows.
 */
export async function storedSet(rows: number, corpusId = 'c', dims = 24): Promise<{ store: MemoryVectorStore; set: EmbeddingSetRecord }> {
  const store = new MemoryVectorStore();
  const set: EmbeddingSetRecord = {
    corpusId,
    modelKey: 'm',
    model: { ...storedSetModel, dimensions: dims },
    source: { location: 'path', modelId: 'test-model' },
    maxTokens: 128,
    chunkRows: 16,
    tokens: false,
    totalRows: rows,
    rowsDone: 0,
    lastId: null,
    complete: false,
    device: 'cpu',
    bytes: 0,
    createdAt: 1,
    updatedAt: 1,
  };
  await store.createSet(set);
  const values = randomRows(seededRandom(5), rows, dims);
  for (let i = 0, c = 0; i < rows; i += 16, c++) {
    const n = Math.min(16, rows - i);
    const vectors = values.slice(i * dims, (i + n) * dims);
    for (let r = 0; r < n; r++) {
      let s = 0;
      for (let j = 0; j < dims; j++) s += vectors[r * dims + j]! ** 2;
      for (let j = 0; j < dims; j++) vectors[r * dims + j]! /= Math.sqrt(s);
    }
    const ids = Array.from({ length: n }, (_, r) => `d${i + r}`);
    await store.writeChunk(corpusId, 'm', { index: c, ids, vectors }, [], { rowsDone: i + n, lastId: ids[n - 1]!, complete: i + n === rows, bytesAdded: vectors.byteLength });
  }
  return { store, set: (await store.getSet(corpusId, 'm'))! };
}
