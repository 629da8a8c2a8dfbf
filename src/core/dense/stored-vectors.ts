import { describeEmbeddingModel } from '../embedding/model-info.ts';
import type { EmbeddingSetRecord, VectorStore } from '../storage/vector-store.ts';
import { MultiVectorStore } from './multi-vector-store.ts';
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
 * The pooled vectors of a complete set as a VectorMatrix. Stored chunks are adopted as the matrix's own chunks
 * (no copy, except the partial last chunk), so memory stays at the raw float32 size plus the ids.
 */
export async function loadVectorMatrix(store: VectorStore, set: EmbeddingSetRecord): Promise<VectorMatrix> {
  assertCompleteSet(set);
  const chunks = await store.getChunks(set.corpusId, set.modelKey);
  chunks.forEach((chunk, i) => {
    if (chunk.index !== i) throw new Error(`Chunk ${i} of the vectors of ${set.model.modelId} is missing; delete the set and embed again.`);
  });
  const ids: string[] = [];
  for (const chunk of chunks) for (const id of chunk.ids) ids.push(id);
  if (ids.length !== set.rowsDone) {
    throw new Error(`The set records ${set.rowsDone} vectors but ${ids.length} are stored; delete the set and embed again.`);
  }
  try {
    return VectorMatrix.fromChunks({ model: set.model, chunkRows: set.chunkRows }, ids, chunks.map((c) => c.vectors));
  } catch (error) {
    throw new Error(`The stored vectors of ${describeEmbeddingModel(set.model)} cannot be read: ${(error as Error).message}`, { cause: error });
  }
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
