import { fuseConvex, DEFAULT_RRF_K, fuseRrf } from '../fusion/index.ts';
import type { GqrPath } from '../gqr/index.ts';
import { rerankPrepared, type GqrChildLists, type GqrPrepared } from '../retrieval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import type { GridPoint } from './grid.ts';

/** The convex-combination weights (of the primary) tried for the CC baseline: 0, 0.1, …, 1. */
export const DEFAULT_CC_WEIGHTS: readonly number[] = Array.from({ length: 11 }, (_, i) => i / 10);

/** What every query of a sweep is re-ranked with. */
export interface SweepJob {
  /** The grid points; each becomes one run. */
  points: GridPoint[];
  /** Results kept per query. */
  topK: number;
  /** Weights of the primary for the convex-combination baselines (min-max normalised scores). */
  ccWeights: readonly number[];
  /** The RRF constant of the RRF baseline. Default 60. */
  rrfK?: number;
}

/** A query prepared for a sweep: the child results and embeddings, computed once. */
export interface SweepPreparedQuery extends GqrPrepared {
  /** The stored query's id. */
  queryId: string;
}

/** The baseline rankings of one query, computed from the same child lists as GQR. */
export interface QueryBaselines {
  /** The primary list, first `topK`. */
  primary: ScoredDoc[];
  /** The complementary list, first `topK`. */
  complementary: ScoredDoc[];
  /** Reciprocal rank fusion of the two lists. */
  rrf: ScoredDoc[];
  /** Convex combinations, one per `ccWeights` entry. */
  cc: ScoredDoc[][];
}

/** Every ranking a sweep makes for one query. */
export interface QuerySweepResult {
  /** The query. */
  queryId: string;
  /** Which lists the children produced. */
  children: GqrChildLists;
  /** One GQR ranking per grid point, in `job.points` order, with the path it took. */
  points: { results: ScoredDoc[]; path: GqrPath }[];
  /** The baselines. */
  baselines: QueryBaselines;
}

/**
 * Re-ranks one prepared query at every grid point and computes its baselines, all from the same child lists and
 * embeddings: nothing is retrieved or embedded here.
 */
export function sweepQuery(prepared: SweepPreparedQuery, job: SweepJob): QuerySweepResult {
  const { primary, complementary } = prepared.input;
  const { topK } = job;
  return {
    queryId: prepared.queryId,
    children: prepared.children,
    points: job.points.map((point) => {
      const { results, path } = rerankPrepared(prepared, topK, point.config);
      return { results, path };
    }),
    baselines: {
      primary: primary.slice(0, topK),
      complementary: complementary.slice(0, topK),
      rrf: fuseRrf(primary, complementary, { k: job.rrfK ?? DEFAULT_RRF_K, fetchK: prepared.fetchK, topK }),
      cc: job.ccWeights.map((weight) => fuseConvex(primary, complementary, { weight, normalizeMethod: 'mm', topK })),
    },
  };
}
