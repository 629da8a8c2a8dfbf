import type { ScoredDoc } from '../ranking/index.ts';

/**
 * Relevance judgements: query id → document id → relevance. `relevance <= 0` means judged not relevant;
 * a document absent from a query's map is unjudged.
 */
export type QrelsMap = Map<string, Map<string, number>>;

/**
 * A run: query id → the documents a system returned, with their scores. The order of the list does not
 * matter for evaluation (documents are re-ranked by score, see `rankForEvaluation`).
 */
export type RunMap = Map<string, ScoredDoc[]>;

/** A line of a text input that could not be used, or that needs the user's attention. */
export interface LineIssue {
  /** 1-based line number. */
  line: number;
  /** What is wrong, in one sentence. */
  reason: string;
}
