import type { ScoredDoc } from '../ranking/index.ts';
import type { CandidatePoolMode } from './config.ts';

/**
 * The candidate ids GQR re-ranks (docs/decisions.md#gqr-reference).
 * `primary`: the primary ids in primary order, NOT deduplicated (as the reference).
 * `union`: primary ids then complementary ids, first occurrence kept.
 */
export function buildCandidatePool(
  primary: readonly ScoredDoc[],
  complementary: readonly ScoredDoc[],
  mode: CandidatePoolMode,
): string[] {
  if (mode === 'primary') return primary.map((doc) => doc.id);
  const seen = new Set<string>();
  const pool: string[] = [];
  for (const list of [primary, complementary]) {
    for (const doc of list) {
      if (seen.has(doc.id)) continue;
      seen.add(doc.id);
      pool.push(doc.id);
    }
  }
  return pool;
}

/**
 * `id → score` for one retriever's list. A duplicate id keeps its last score. A non-finite score (NaN, ±Infinity)
 * is treated as missing (G3, docs/decisions.md#g1-to-g4): the entry is skipped, so the id gets an earlier finite
 * score or the floor.
 */
export function scoreMap(list: readonly ScoredDoc[]): Map<string, number> {
  const scores = new Map<string, number>();
  for (const doc of list) {
    const score = Number(doc.score);
    if (Number.isFinite(score)) scores.set(doc.id, score);
  }
  return scores;
}

/** Score given to a candidate a list does not contain: `min − max(1, max − min)`, or −1 for an empty map. */
export function missingScoreFloor(scores: ReadonlyMap<string, number>): number {
  if (scores.size === 0) return -1;
  let min = Infinity;
  let max = -Infinity;
  for (const score of scores.values()) {
    if (score < min) min = score;
    if (score > max) max = score;
  }
  return min - Math.max(1, max - min);
}

/** The list's scores aligned to the pool; candidates the list lacks get `floor`. */
export function alignScores(pool: readonly string[], scores: ReadonlyMap<string, number>, floor: number): Float64Array {
  const aligned = new Float64Array(pool.length);
  for (let i = 0; i < pool.length; i++) aligned[i] = scores.get(pool[i]) ?? floor;
  return aligned;
}
