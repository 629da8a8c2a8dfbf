import type { GqrTrace } from '../../core/index.ts';

/** One candidate of the pool with its distributions and ranks, for the inspector table. */
export interface PoolRow {
  id: string;
  /** Position in the pool (primary order, then new complementary documents). */
  poolIndex: number;
  primaryScore: number;
  /** Whether the primary returned it (else its score is the floor). */
  inPrimary: boolean;
  complementaryScore: number;
  inComplementary: boolean;
  /** p⁽⁰⁾, q, the (last) target and the final distribution. */
  p0: number;
  q: number;
  target: number;
  final: number;
  initialRank: number;
  finalRank: number;
}

/** The pool as table rows (each id once), in final rank order. */
export function poolRows(trace: GqrTrace, primaryIds: ReadonlySet<string>, complementaryIds: ReadonlySet<string>): PoolRow[] {
  if (trace.pool.length === 0) return [];
  const first = trace.ranks[0]!;
  const last = trace.ranks[trace.ranks.length - 1]!;
  const seen = new Set<string>();
  const rows: PoolRow[] = [];
  trace.pool.forEach((id, i) => {
    if (seen.has(id)) return;
    seen.add(id);
    rows.push({
      id,
      poolIndex: i,
      primaryScore: trace.primaryScores[i]!,
      inPrimary: primaryIds.has(id),
      complementaryScore: trace.complementaryScores[i]!,
      inComplementary: complementaryIds.has(id),
      p0: trace.primaryDistribution[i]!,
      q: trace.complementaryDistribution[i]!,
      target: trace.targetDistribution[i]!,
      final: trace.finalDistribution[i]!,
      initialRank: first[i]!,
      finalRank: last[i]!,
    });
  });
  return rows.sort((a, b) => a.finalRank - b.finalRank);
}

/**
 * The rank trajectories for the chart: one row per step (`step`, then doc id → rank) for the candidates that are
 * in the top `limit` at the start or at the end (at most 2 × limit lines, so the chart stays readable).
 */
export function rankTrajectories(trace: GqrTrace, limit: number): { ids: string[]; rows: Record<string, number>[] } {
  if (trace.ranks.length === 0) return { ids: [], rows: [] };
  const first = trace.ranks[0]!;
  const last = trace.ranks[trace.ranks.length - 1]!;
  const indices: number[] = [];
  const seen = new Set<string>();
  trace.pool.forEach((id, i) => {
    if (seen.has(id) || (first[i]! > limit && last[i]! > limit)) return;
    seen.add(id);
    indices.push(i);
  });
  indices.sort((a, b) => last[a]! - last[b]!);
  const ids = indices.map((i) => trace.pool[i]!);
  const rows = trace.ranks.map((ranks, step) => {
    // fromEntries: a document id such as "__proto__" stays a key (assignment would set the prototype).
    return Object.fromEntries([['step', step], ...indices.map((i) => [trace.pool[i]!, ranks[i]!] as const)]) as Record<string, number>;
  });
  return { ids, rows };
}

/** ✓ for a document judged relevant, ✗ for one judged not relevant, nothing when unjudged or without qrels. */
export function qrelsMark(relevance: number | undefined, judged: boolean): string {
  if (!judged || relevance === undefined) return '';
  return relevance > 0 ? ' ✓' : ' ✗';
}

/** The legend entry of one trajectory line: ranks at the start and the end, the title and id, the qrels relevance. */
export function trajectoryLabel(id: string, title: string, startRank: number | undefined, endRank: number | undefined, judgements: ReadonlyMap<string, number> | undefined): string {
  const rel = judgements?.get(id);
  const relevance = judgements === undefined ? '' : rel === undefined ? ' · unjudged' : rel > 0 ? ` · ✓ relevant (rel ${rel})` : ' · ✗ not relevant (rel 0)';
  const name = title && title !== id ? `${title.length > 60 ? `${title.slice(0, 59)}…` : title} (${id})` : id;
  return `rank ${startRank ?? '?'} → ${endRank ?? '?'} · ${name}${relevance}`;
}
