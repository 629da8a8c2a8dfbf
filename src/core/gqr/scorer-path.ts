import type { ScorerMode } from './config.ts';
import type { GqrInput } from './input.ts';
import { CosineScorer, flattenRows, IdentityScorer, MaxSimScorer, type QueryScorer } from './scorers.ts';

/** Which optimisation ran: cosine on the query vector, MaxSim on the query matrix, or directly on the scores. */
export type GqrPath = 'single' | 'multi' | 'score-space';

/** The chosen path, why, and the scorer with its starting parameters. */
export interface ScorerPath {
  /** The scorer mode after resolving `auto`. */
  scorer: 'single' | 'multi';
  /** The path that runs. */
  path: GqrPath;
  /** Human-readable reason, e.g. "candidate m012 has no embedding". */
  reason: string;
  /** Scores the pool as a function of the parameters. */
  queryScorer: QueryScorer;
  /** Starting parameters θ⁽⁰⁾ (a fresh float64 copy, safe to update in place). */
  params: Float64Array;
}

/** `auto` → `multi` iff the primary searches in multi-vector mode, else `single`; explicit modes as they are. */
export function resolveScorerMode(mode: ScorerMode, primarySearchMode?: 'single' | 'multi'): 'single' | 'multi' {
  if (mode === 'auto') return primarySearchMode === 'multi' ? 'multi' : 'single';
  return mode;
}

/**
 * Picks the path (as the reference, docs/decisions.md#gqr-reference): the embedding path of the resolved scorer mode
 * when the query embedding is present and EVERY candidate has one; otherwise the score-space fallback for the whole
 * pool, started from `primaryScores`. Throws on dimension mismatches (the reference lets numpy raise).
 */
export function chooseScorerPath(
  input: GqrInput,
  pool: readonly string[],
  primaryScores: Float64Array,
  scorerMode: ScorerMode,
): ScorerPath {
  const scorer = resolveScorerMode(scorerMode, input.primarySearchMode);
  const fallback = (reason: string): ScorerPath => ({
    scorer,
    path: 'score-space',
    reason,
    queryScorer: new IdentityScorer(pool.length),
    params: Float64Array.from(primaryScores),
  });
  if (pool.length === 0) return fallback('candidate pool is empty');

  if (scorer === 'single') {
    const query = input.queryEmbedding;
    if (query === null || query === undefined) return fallback('no query embedding');
    const dim = query.length;
    const rows: ArrayLike<number>[] = [];
    for (const id of pool) {
      const row = input.candidateEmbeddings?.get(id);
      if (row === undefined || row === null) return fallback(`candidate ${id} has no embedding`);
      if (row.length !== dim) {
        throw new Error(`embedding dimension mismatch: candidate ${id} has ${row.length}, query has ${dim}`);
      }
      rows.push(row);
    }
    return {
      scorer,
      path: 'single',
      reason: `query and all ${pool.length} candidates have single-vector embeddings`,
      queryScorer: new CosineScorer(rows, dim),
      params: Float64Array.from(query),
    };
  }

  const query = input.queryMultiEmbedding;
  if (query === null || query === undefined) return fallback('no query multi-vector embedding');
  const dim = query.length > 0 ? query[0].length : 0;
  for (let a = 0; a < query.length; a++) {
    if (query[a].length !== dim) {
      throw new Error(`embedding dimension mismatch: query vector ${a} has ${query[a].length}, query vector 0 has ${dim}`);
    }
  }
  const matrices: (readonly ArrayLike<number>[])[] = [];
  for (const id of pool) {
    const matrix = input.candidateMultiEmbeddings?.get(id);
    if (matrix === undefined || matrix === null) return fallback(`candidate ${id} has no multi-vector embedding`);
    if (query.length > 0) {
      for (const vector of matrix) {
        if (vector.length !== dim) {
          throw new Error(`embedding dimension mismatch: candidate ${id} has ${vector.length}, query has ${dim}`);
        }
      }
    }
    matrices.push(matrix);
  }
  return {
    scorer,
    path: 'multi',
    reason: `query and all ${pool.length} candidates have multi-vector embeddings`,
    queryScorer: new MaxSimScorer(matrices, query.length, dim),
    params: flattenRows(query, dim),
  };
}
