/**
 * Evidence metrics for multi-hop questions (M2: the reference's group metrics, docs/decisions.md#metrics).
 * The gold evidence is a list of groups: groups are ANDed (each is one supporting fact), the ids inside a
 * group are ORed (any of them proves that fact). `[[A, B], [C]]` = (A or B) and C.
 */

/** Scores of one retrieved list against grouped gold evidence. */
export interface EvidenceScores {
  /** Share of groups with at least one retrieved member. */
  recall: number;
  /** Distinct retrieved ids that belong to some group, divided by the list length (repeats included). */
  precision: number;
  /** Harmonic mean of recall and precision; 0 when both are 0. */
  f1: number;
  /** 1 when every group has a retrieved member, else 0. */
  fullRecall: number;
  /** Mean over groups of 1 / rank of the group's first retrieved member (0 for a group never hit). */
  mrr: number;
  /**
   * Mean over groups of AP_g: the mean of precision@i at the ranks i holding a member of g, where
   * precision@i counts only members of g. Divides by the hits found, not by |g| (the reference's definition).
   */
  map: number;
  /**
   * DCG with gain 2^rel − 1 and log2(i+1) discount, where a retrieved id earns its gain only if it satisfies
   * at least one not-yet-satisfied group; divided by the ideal: each group's best relevance, sorted.
   */
  ndcg: number;
}

/** Relevance of evidence ids for the graded `ndcg`; ids absent from a given map have relevance 0. */
export type EvidenceRelevance = ReadonlyMap<string, number> | Readonly<Record<string, number>>;

/**
 * Whether gold evidence can be scored: a non-empty list of non-empty groups whose ids are non-blank
 * after trimming. `[]`, `[[]]` and `[[""]]` are not.
 */
export function isValidEvidence(groups: readonly (readonly string[])[] | null | undefined): boolean {
  if (!groups || groups.length === 0) return false;
  return groups.every((g) => g.length > 0 && g.every((id) => typeof id === 'string' && id.trim() !== ''));
}

/**
 * Scores a retrieved id list (in rank order, repeats allowed) against grouped gold evidence.
 * Returns null when the evidence is not valid (see `isValidEvidence`); a missing list scores 0 everywhere.
 * `relevance` grades ids for `ndcg` only; when absent or empty every gold id has relevance 1.
 */
export function evidenceScores(
  groups: readonly (readonly string[])[] | null | undefined,
  retrieved: readonly string[] | null | undefined,
  relevance?: EvidenceRelevance,
): EvidenceScores | null {
  if (!isValidEvidence(groups)) return null;
  const gold = (groups as readonly (readonly string[])[]).map((g) => new Set(g));
  const list = retrieved ?? [];
  const retrievedSet = new Set(list);

  const hitGroups = gold.filter((g) => [...g].some((id) => retrievedSet.has(id))).length;
  const recall = hitGroups / gold.length;
  const goldIds = new Set(gold.flatMap((g) => [...g]));
  const distinctHits = [...retrievedSet].filter((id) => goldIds.has(id)).length;
  const precision = list.length === 0 ? 0 : distinctHits / list.length;
  const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
  const fullRecall = hitGroups === gold.length ? 1 : 0;

  let rrSum = 0;
  let apSum = 0;
  for (const g of gold) {
    const first = list.findIndex((id) => g.has(id));
    if (first >= 0) rrSum += 1 / (first + 1);
    let hits = 0;
    let precisionSum = 0;
    list.forEach((id, i) => {
      if (!g.has(id)) return;
      hits++;
      precisionSum += hits / (i + 1);
    });
    if (hits > 0) apSum += precisionSum / hits;
  }

  return {
    recall,
    precision,
    f1,
    fullRecall,
    mrr: rrSum / gold.length,
    map: apSum / gold.length,
    ndcg: groupNdcg(gold, list, relevance),
  };
}

function groupNdcg(gold: Set<string>[], list: readonly string[], relevance?: EvidenceRelevance): number {
  const graded = relevance !== undefined && relevanceSize(relevance) > 0;
  const rel = (id: string): number => (graded ? (lookup(relevance as EvidenceRelevance, id) ?? 0) : 1);
  const satisfied = new Array<boolean>(gold.length).fill(false);
  let dcg = 0;
  list.forEach((id, i) => {
    let opens = false;
    gold.forEach((g, j) => {
      if (!satisfied[j] && g.has(id)) {
        satisfied[j] = true;
        opens = true;
      }
    });
    if (opens) dcg += (2 ** rel(id) - 1) / Math.log2(i + 2);
  });
  const best = gold.map((g) => Math.max(...[...g].map(rel))).sort((a, b) => b - a);
  let idcg = 0;
  best.forEach((r, j) => {
    idcg += (2 ** r - 1) / Math.log2(j + 2);
  });
  return idcg === 0 ? 0 : dcg / idcg;
}

function relevanceSize(relevance: EvidenceRelevance): number {
  return relevance instanceof Map ? relevance.size : Object.keys(relevance).length;
}

function lookup(relevance: EvidenceRelevance, id: string): number | undefined {
  if (relevance instanceof Map) return relevance.get(id);
  const record = relevance as Readonly<Record<string, number>>;
  return Object.prototype.hasOwnProperty.call(record, id) ? record[id] : undefined;
}
