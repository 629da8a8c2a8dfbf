/** The score normalisations of convex-combination fusion (docs/decisions.md#fusion-and-retrieval). */
export type NormalizeMethod = 'mm' | 'tmm' | 'z' | 'dbsf';

/** All normalisation methods, in the reference's order. */
export const NORMALIZE_METHODS: readonly NormalizeMethod[] = ['mm', 'tmm', 'z', 'dbsf'];

/** The value a doc missing from a list gets after that list is normalised. */
export const MISSING_SCORE_FLOOR: Readonly<Record<NormalizeMethod, number>> = { mm: 0, tmm: 0, z: -3, dbsf: 0 };

/**
 * Normalises scores aligned to a candidate set; `null` marks a doc missing from the list.
 * Statistics ignore nulls; nulls come back as the method's floor ({@link MISSING_SCORE_FLOOR}).
 * - mm: (s−min)/(max−min); max == min → 0.5.
 * - tmm: (s−θ)/(max−θ), θ = `theoreticalMin`; max == θ → 0.5.
 * - z: (s−μ)/σ, population σ; σ == 0 → 0.
 * - dbsf: (s−(μ−3σ))/(6σ) clipped to [0, 1]; σ == 0 → 0.5.
 * `tmm` without `theoreticalMin` throws `TMM normalization requires <minName>`.
 */
export function normalizeScores(
  scores: readonly (number | null)[],
  method: NormalizeMethod,
  theoreticalMin?: number | null,
  minName = 'theoretical_min',
): number[] {
  if (!NORMALIZE_METHODS.includes(method)) throw new Error(`Unknown normalization method: ${String(method)}`);
  if (method === 'tmm' && (theoreticalMin === undefined || theoreticalMin === null)) {
    throw new Error(`TMM normalization requires ${minName}`);
  }
  const present = scores.filter((s): s is number => s !== null);
  const floor = MISSING_SCORE_FLOOR[method];
  let transform: (s: number) => number;
  if (present.length === 0) {
    transform = () => floor; // never called: every entry is null
  } else if (method === 'mm' || method === 'tmm') {
    const max = Math.max(...present);
    const low = method === 'mm' ? Math.min(...present) : (theoreticalMin as number);
    transform = max === low ? () => 0.5 : (s) => (s - low) / (max - low);
  } else {
    const mean = present.reduce((sum, s) => sum + s, 0) / present.length;
    const sigma = Math.sqrt(present.reduce((sum, s) => sum + (s - mean) ** 2, 0) / present.length);
    if (method === 'z') {
      transform = sigma === 0 ? () => 0 : (s) => (s - mean) / sigma;
    } else {
      const lower = mean - 3 * sigma;
      transform = sigma === 0 ? () => 0.5 : (s) => Math.min(1, Math.max(0, (s - lower) / (6 * sigma)));
    }
  }
  return scores.map((s) => (s === null ? floor : transform(s)));
}
