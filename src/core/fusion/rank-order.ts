import type { ScoredDoc } from '../ranking/index.ts';

/**
 * Sorts by score descending with a stable sort, so equal scores keep their input order.
 * NaN scores go last (in input order) instead of making the comparator inconsistent.
 */
export function sortByScoreDescending(docs: ScoredDoc[]): ScoredDoc[] {
  return docs.slice().sort((a, b) => {
    const aNaN = Number.isNaN(a.score);
    const bNaN = Number.isNaN(b.score);
    if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
    return a.score === b.score ? 0 : a.score > b.score ? -1 : 1;
  });
}

/** The first `topK` docs; all of them when `topK` is undefined. */
export function takeTop(docs: ScoredDoc[], topK: number | undefined): ScoredDoc[] {
  if (topK === undefined) return docs;
  if (!Number.isInteger(topK) || topK < 0) throw new Error(`topK must be a non-negative integer, got ${topK}`);
  return docs.slice(0, topK);
}
