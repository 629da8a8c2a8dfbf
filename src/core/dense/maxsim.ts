import { assertSameEmbeddingModel, type QueryTokenEmbedding, type TokenEmbedding } from '../embedding/index.ts';
import type { MultiVectorStore } from './multi-vector-store.ts';
import { TopKHeap, type DenseHit } from './top-k.ts';

/**
 * Late-interaction MaxSim, as GQR (docs/decisions.md#gqr-reference): S(Q, D) = (1/max(m, 1)) · Σ_a max_b ⟨q_a, d_b⟩
 * over the m query vectors q_a and the document vectors d_b — raw dot products, normalised by the number of query
 * vectors.
 * An empty query or an empty document scores 0.
 */
export function maxSimScore(query: TokenEmbedding, doc: TokenEmbedding, dimensions: number): number {
  return maxSimRows(query, dimensions, doc.count, (b) => doc.vectors.subarray(b * dimensions, (b + 1) * dimensions));
}

/** Exact top-k MaxSim search over every document of a multi-vector store; ties rank the lower document index first. */
export function searchMaxSim(store: MultiVectorStore, query: QueryTokenEmbedding, k: number): DenseHit[] {
  assertSameEmbeddingModel(store.model, query.model);
  const dims = store.dimensions;
  if (query.vectors.length !== query.count * dims) {
    throw new Error(`query token vectors have ${query.vectors.length} values; expected ${query.count} × ${dims}`);
  }
  const heap = new TopKHeap(k);
  if (k > 0) {
    for (let doc = 0; doc < store.size; doc++) {
      const start = store.start(doc);
      heap.offer(maxSimRows(query, dims, store.count(doc), (b) => store.rows.row(start + b)), doc);
    }
  }
  return heap.sorted().map(({ score, row }) => ({ id: store.ids[row], score, row }));
}

function maxSimRows(query: TokenEmbedding, dims: number, docCount: number, docRow: (b: number) => Float32Array): number {
  if (query.count === 0 || docCount === 0) return 0;
  const q = query.vectors;
  let total = 0;
  for (let a = 0; a < query.count; a++) {
    const qa = a * dims;
    let best = -Infinity;
    for (let b = 0; b < docCount; b++) {
      const d = docRow(b);
      let s = 0;
      for (let j = 0; j < dims; j++) s += q[qa + j] * d[j];
      if (s > best) best = s;
    }
    total += best;
  }
  return total / query.count;
}
