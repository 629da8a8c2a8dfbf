import type { ScoredDoc } from '../ranking/index.ts';
import { normalizeScores, type NormalizeMethod } from './normalize.ts';
import { sortByScoreDescending, takeTop } from './rank-order.ts';

/** Options of {@link fuseConvex}. */
export interface ConvexOptions {
  /** Weight of list 1; list 2 gets 1 − weight. Default 0.5. */
  weight?: number;
  /** Per-list score normalisation; default `mm`. */
  normalizeMethod?: NormalizeMethod;
  /** Theoretical minimum score of retriever 1 (required by `tmm`). */
  pipeline1Min?: number | null;
  /** Theoretical minimum score of retriever 2 (required by `tmm`). */
  pipeline2Min?: number | null;
  /** How many fused docs to return; all when omitted. */
  topK?: number;
}

/**
 * Convex-combination fusion, as the reference (docs/decisions.md#fusion-and-retrieval): each list is normalised over
 * the docs it contains (missing docs get the method's floor), then combined = weight·n1 + (1 − weight)·n2, sorted
 * descending.
 * A doc listed twice in one list keeps its last score.
 * Differs from the reference only where it is unspecified: the candidate order is deterministic — list-1 ids in
 * first-occurrence order, then ids new in list 2 — and the sort is stable, so ties keep that order.
 */
export function fuseConvex(list1: ScoredDoc[], list2: ScoredDoc[], options: ConvexOptions = {}): ScoredDoc[] {
  const { ids, n1, n2, weight } = convexCandidates(list1, list2, options);
  const fused = ids.map((id, i) => ({ id, score: weight * n1[i]! + (1 - weight) * n2[i]! }));
  return takeTop(sortByScoreDescending(fused), options.topK);
}

/**
 * The candidates of a convex combination with their raw and normalised scores per list, aligned to `ids` (raw
 * `null`: not in that list); what {@link fuseConvex} combines and its explanation shows.
 */
export function convexCandidates(list1: ScoredDoc[], list2: ScoredDoc[], options: ConvexOptions = {}) {
  const weight = options.weight ?? 0.5;
  const method = options.normalizeMethod ?? 'mm';
  const byId1 = lastScoreById(list1);
  const byId2 = lastScoreById(list2);
  const ids = [...new Set([...byId1.keys(), ...byId2.keys()])];
  const raw1 = ids.map((id) => byId1.get(id) ?? null);
  const raw2 = ids.map((id) => byId2.get(id) ?? null);
  const n1 = normalizeScores(raw1, method, options.pipeline1Min, 'pipeline_1_min');
  const n2 = normalizeScores(raw2, method, options.pipeline2Min, 'pipeline_2_min');
  return { ids, raw1, raw2, n1, n2, weight, method };
}

function lastScoreById(list: ScoredDoc[]): Map<string, number> {
  const byId = new Map<string, number>();
  for (const doc of list) byId.set(doc.id, doc.score);
  return byId;
}
