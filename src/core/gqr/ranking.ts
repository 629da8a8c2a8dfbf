import type { ScoredDoc } from '../ranking/index.ts';

/**
 * Pool indices of each id's first occurrence, in pool order. Only `primary` pool mode can repeat an id; the
 * repeats share the first occurrence's score (same raw score, same embedding) and are reported once.
 */
export function firstOccurrenceIndices(pool: readonly string[]): number[] {
  const seen = new Set<string>();
  const indices: number[] = [];
  for (let i = 0; i < pool.length; i++) {
    if (seen.has(pool[i])) continue;
    seen.add(pool[i]);
    indices.push(i);
  }
  return indices;
}

/**
 * Sorts pool indices by score descending, stably (ties keep pool order: primary order, then new complementary
 * docs). NaN sorts last, so a comparator never sees an inconsistent answer.
 */
export function sortIndicesByScore(indices: number[], scores: ArrayLike<number>): number[] {
  return indices.sort((a, b) => {
    const sa = Number.isNaN(scores[a]) ? -Infinity : scores[a];
    const sb = Number.isNaN(scores[b]) ? -Infinity : scores[b];
    return sa > sb ? -1 : sa < sb ? 1 : 0;
  });
}

/** The first `topK` distinct candidates by final score, as `{id, score}`. */
export function topScoredDocs(
  pool: readonly string[],
  scores: ArrayLike<number>,
  topK: number,
  unique: number[] = firstOccurrenceIndices(pool),
): ScoredDoc[] {
  const order = sortIndicesByScore(unique.slice(), scores);
  const results: ScoredDoc[] = [];
  for (let r = 0; r < order.length && r < topK; r++) results.push({ id: pool[order[r]], score: scores[order[r]] });
  return results;
}

/**
 * 1-based rank of every pool entry under `scores` (rank 1 = first result), consistent with {@link topScoredDocs}:
 * a repeated id gets the rank of its first occurrence.
 */
export function candidateRanks(
  pool: readonly string[],
  scores: ArrayLike<number>,
  unique: number[] = firstOccurrenceIndices(pool),
): number[] {
  const order = sortIndicesByScore(unique.slice(), scores);
  const rankById = new Map<string, number>();
  for (let r = 0; r < order.length; r++) rankById.set(pool[order[r]], r + 1);
  return pool.map((id) => rankById.get(id) as number);
}
