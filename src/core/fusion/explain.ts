import type { ScoredDoc } from '../ranking/index.ts';
import { convexCandidates, type ConvexOptions } from './convex.ts';
import type { NormalizeMethod } from './normalize.ts';
import { DEFAULT_RRF_K, type RrfOptions } from './rrf.ts';

/** One list's part in a document's RRF score. */
export interface RrfListPart {
  /** 1-based ranks of the document in the list (a list may repeat a document); empty when it is not there. */
  ranks: number[];
  /** 1/(k + rank) for each rank. */
  terms: number[];
}

/** The arithmetic of a document's RRF score: Σ 1/(k + rank) over both lists, plus the missing-list term. */
export interface RrfExplanation {
  method: 'rrf';
  docId: string;
  k: number;
  /** Depth each list was asked for. */
  fetchK: number;
  lists: [RrfListPart, RrfListPart];
  /** 1/(k + fetchK + 1), added when the document is in one list only; null when it is in both (or neither). */
  missingTerm: number | null;
  /** The sum, in the order `fuseRrf` adds: exactly the fused score. */
  score: number;
}

/** One list's part in a document's convex-combination score. */
export interface ConvexListPart {
  /** The list's score of the document; null when it is not in the list. */
  raw: number | null;
  /** 1-based rank in the list; null when it is not there. */
  rank: number | null;
  /** The score after the list's normalisation (the method's floor when missing). */
  normalized: number;
  /** The list's weight (w, or 1 − w). */
  weight: number;
  /** weight × normalized. */
  weighted: number;
}

/** The arithmetic of a document's convex-combination score: w·n1 + (1 − w)·n2. */
export interface ConvexExplanation {
  method: 'cc';
  docId: string;
  normalizeMethod: NormalizeMethod;
  /** Documents the lists were normalised over (both lists' union). */
  candidates: number;
  lists: [ConvexListPart, ConvexListPart];
  /** Exactly the fused score. */
  score: number;
}

export type FusionExplanation = RrfExplanation | ConvexExplanation;

/** Why `docId` has its RRF score in `fuseRrf(list1, list2, options)`; null when neither list holds it. */
export function explainRrf(list1: ScoredDoc[], list2: ScoredDoc[], docId: string, options: Omit<RrfOptions, 'topK'>): RrfExplanation | null {
  const k = options.k ?? DEFAULT_RRF_K;
  const part = (list: ScoredDoc[]): RrfListPart => {
    const ranks = list.flatMap((d, i) => (d.id === docId ? [i + 1] : []));
    return { ranks, terms: ranks.map((rank) => 1 / (k + rank)) };
  };
  const lists: [RrfListPart, RrfListPart] = [part(list1), part(list2)];
  if (lists[0].ranks.length === 0 && lists[1].ranks.length === 0) return null;
  let score = 0;
  for (const list of lists) for (const term of list.terms) score = score + term;
  const inBoth = lists[0].ranks.length > 0 && lists[1].ranks.length > 0;
  const missingTerm = inBoth ? null : 1 / (k + options.fetchK + 1);
  if (missingTerm !== null) score += missingTerm;
  return { method: 'rrf', docId, k, fetchK: options.fetchK, lists, missingTerm, score };
}

/** Why `docId` has its score in `fuseConvex(list1, list2, options)`; null when neither list holds it. */
export function explainConvex(list1: ScoredDoc[], list2: ScoredDoc[], docId: string, options: Omit<ConvexOptions, 'topK'> = {}): ConvexExplanation | null {
  const { ids, raw1, raw2, n1, n2, weight, method } = convexCandidates(list1, list2, options);
  const i = ids.indexOf(docId);
  if (i < 0) return null;
  const rankIn = (list: ScoredDoc[]) => {
    const at = list.findIndex((d) => d.id === docId);
    return at < 0 ? null : at + 1;
  };
  const first: ConvexListPart = { raw: raw1[i]!, rank: rankIn(list1), normalized: n1[i]!, weight, weighted: weight * n1[i]! };
  const second: ConvexListPart = { raw: raw2[i]!, rank: rankIn(list2), normalized: n2[i]!, weight: 1 - weight, weighted: (1 - weight) * n2[i]! };
  return { method: 'cc', docId, normalizeMethod: method, candidates: ids.length, lists: [first, second], score: first.weighted + second.weighted };
}
