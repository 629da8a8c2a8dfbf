import type { ScoredDoc } from '../ranking/index.ts';
import { sortByScoreDescending, takeTop } from './rank-order.ts';

/** Default RRF constant (the reference's `rrf_k`, docs/decisions.md#fusion-and-retrieval). */
export const DEFAULT_RRF_K = 60;

/** Options of {@link fuseRrf}. */
export interface RrfOptions {
  /** The RRF constant k in 1/(k + rank); default 60. */
  k?: number;
  /** The depth each child was asked for (top_k × fetch_k_multiplier), not the length it returned. */
  fetchK: number;
  /** How many fused docs to return; all when omitted. */
  topK?: number;
}

/**
 * Reciprocal rank fusion of two ranked lists, as the reference (docs/decisions.md#fusion-and-retrieval):
 * score(d) = Σ over both lists of 1/(k + rank), rank from 1 in list order; a doc listed twice in one list
 * gets both contributions; a doc present in only one list also gets 1/(k + fetchK + 1).
 * Ties keep insertion order: list-1 docs by rank, then docs new in list 2 (stable sort).
 */
export function fuseRrf(list1: ScoredDoc[], list2: ScoredDoc[], options: RrfOptions): ScoredDoc[] {
  const k = options.k ?? DEFAULT_RRF_K;
  const { fetchK } = options;
  if (!Number.isFinite(k) || k < 0) throw new Error(`rrf k must be a non-negative number, got ${k}`);
  if (!Number.isInteger(fetchK) || fetchK < 0) throw new Error(`fetchK must be a non-negative integer, got ${fetchK}`);

  const scores = new Map<string, number>();
  const seen1 = new Set<string>();
  const seen2 = new Set<string>();
  const accumulate = (list: ScoredDoc[], seen: Set<string>) => {
    list.forEach((doc, index) => {
      scores.set(doc.id, (scores.get(doc.id) ?? 0) + 1 / (k + index + 1));
      seen.add(doc.id);
    });
  };
  accumulate(list1, seen1);
  accumulate(list2, seen2);

  const missingTerm = 1 / (k + fetchK + 1);
  const fused: ScoredDoc[] = [];
  for (const [id, score] of scores) {
    const inBoth = seen1.has(id) && seen2.has(id);
    fused.push({ id, score: inBoth ? score : score + missingTerm });
  }
  return takeTop(sortByScoreDescending(fused), options.topK);
}
