import type { ScoredDoc } from '../ranking/index.ts';

/** What GQR re-ranks: both children's results and whatever embeddings the primary's geometry offers. */
export interface GqrInput {
  /** Primary retriever's results, in its order. */
  primary: ScoredDoc[];
  /** Complementary retriever's results, in its order. */
  complementary: ScoredDoc[];
  /** The primary's single-vector query embedding (cosine path); null/absent → score-space fallback. */
  queryEmbedding?: ArrayLike<number> | null;
  /** Single-vector embeddings of candidates, by doc id; every candidate needs one for the cosine path. */
  candidateEmbeddings?: ReadonlyMap<string, ArrayLike<number>>;
  /** The primary's multi-vector query embedding (one vector per query token; MaxSim path). */
  queryMultiEmbedding?: ArrayLike<number>[] | null;
  /** Multi-vector embeddings of candidates, by doc id; every candidate needs one for the MaxSim path. */
  candidateMultiEmbeddings?: ReadonlyMap<string, ArrayLike<number>[]>;
  /** The primary's search mode, which scorerMode `auto` resolves against (`multi` → MaxSim). Default `single`. */
  primarySearchMode?: 'single' | 'multi';
}
