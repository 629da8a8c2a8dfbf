import type { Measure } from './measures.ts';

/** One query's ranking joined with its judgements: everything a measure needs. */
export interface JudgedRanking {
  /** Relevance of the document at each rank (index 0 = rank 1); `undefined` = unjudged. */
  relevance: (number | undefined)[];
  /** Number of judged documents with relevance > 0 (whether retrieved or not). */
  numRelevant: number;
  /** Relevances > 0 of all judged documents, sorted descending: the ideal ranking's gains. */
  idealGains: number[];
}

/** Joins a ranked list of document ids (see `rankForEvaluation`) with one query's judgements. */
export function judgeRanking(ranked: readonly string[], judgements: ReadonlyMap<string, number>): JudgedRanking {
  const idealGains: number[] = [];
  for (const rel of judgements.values()) if (rel > 0) idealGains.push(rel);
  idealGains.sort((a, b) => b - a);
  return {
    relevance: ranked.map((id) => judgements.get(id)),
    numRelevant: idealGains.length,
    idealGains,
  };
}

const isRelevant = (rel: number | undefined): boolean => rel !== undefined && rel > 0;

/**
 * The value of one measure for one query, with trec_eval definitions (n = number of ranked documents,
 * R = number of relevant documents, rel > 0 is relevant):
 * - `nDCG@k`: Σ_{i≤k} gain_i / log2(i+1) over the ranking, divided by the same sum over the ideal ranking
 *   (all judged relevant documents sorted by relevance), both truncated at k; gain = relevance if > 0, else 0.
 *   `nDCG` has no cutoff.
 * - `R@k`: relevant documents in the top k / R.
 * - `P@k`: relevant documents in the top k / k (k even when fewer than k documents were returned).
 * - `RR@k`: 1 / rank of the first relevant document if that rank ≤ k, else 0. `RR` has no cutoff.
 * - `AP`: Σ over relevant documents at rank i of (relevant documents in the top i) / i, divided by R.
 *   `AP@k` (trec_eval's map_cut) counts only ranks ≤ k and still divides by R.
 * - `Rprec`: relevant documents in the top R / R.
 * - `Judged@k`: judged documents (any relevance) in the top k / min(k, n), as ir_measures; 0 for an empty
 *   ranking.
 * A query with R = 0 has no defined value; callers skip it (this function returns 0 for it).
 */
export function measureQuery(measure: Measure, ranking: JudgedRanking): number {
  const { relevance, numRelevant, idealGains } = ranking;
  const n = relevance.length;
  const depth = Math.min(measure.cutoff ?? n, n);
  if (numRelevant === 0) return 0;
  switch (measure.kind) {
    case 'nDCG': {
      let dcg = 0;
      for (let i = 0; i < depth; i++) {
        const rel = relevance[i];
        if (rel !== undefined && rel > 0) dcg += rel / Math.log2(i + 2);
      }
      const idealDepth = Math.min(measure.cutoff ?? idealGains.length, idealGains.length);
      let idcg = 0;
      for (let i = 0; i < idealDepth; i++) idcg += idealGains[i] / Math.log2(i + 2);
      return idcg > 0 ? dcg / idcg : 0;
    }
    case 'R':
      return countRelevant(relevance, depth) / numRelevant;
    case 'P':
      return countRelevant(relevance, depth) / (measure.cutoff as number);
    case 'RR': {
      for (let i = 0; i < depth; i++) if (isRelevant(relevance[i])) return 1 / (i + 1);
      return 0;
    }
    case 'AP': {
      let hits = 0;
      let sum = 0;
      for (let i = 0; i < depth; i++) {
        if (!isRelevant(relevance[i])) continue;
        hits++;
        sum += hits / (i + 1);
      }
      return sum / numRelevant;
    }
    case 'Rprec':
      return countRelevant(relevance, Math.min(numRelevant, n)) / numRelevant;
    case 'Judged': {
      if (depth === 0) return 0;
      let judged = 0;
      for (let i = 0; i < depth; i++) if (relevance[i] !== undefined) judged++;
      return judged / depth;
    }
  }
}

function countRelevant(relevance: readonly (number | undefined)[], depth: number): number {
  let count = 0;
  for (let i = 0; i < depth; i++) if (isRelevant(relevance[i])) count++;
  return count;
}
