import type { Bm25Params } from './params.ts';
import type { ScoringContext } from './compact/maxscore.ts';
import { freqAt, positionOf } from './compact/compact-index.ts';

/** One query term's part of a document's BM25 score. */
export interface Bm25TermContribution {
  /** The index term (after analysis). */
  term: string;
  /** Documents that contain the term. */
  documentFrequency: number;
  /** ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf: number;
  /** How often the term occurs in the document (0: it does not, and contributes nothing). */
  termFrequency: number;
  /** idf · (d + tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl))); 0 when tf is 0. */
  contribution: number;
}

/** Why a document has its BM25 score: every query term's contribution and what went into it. */
export interface Bm25Explanation {
  docId: string;
  params: Bm25Params;
  documentCount: number;
  /** The document's length in index terms (dl). */
  documentLength: number;
  /** The mean document length (avgdl). */
  averageLength: number;
  /** k1·(1 − b + b·dl/avgdl), the length part every term's tf is saturated against. */
  lengthNorm: number;
  /** Query terms present in the index, in query order (each once). */
  terms: Bm25TermContribution[];
  /** Query terms no document contains. */
  unknownTerms: string[];
  /** Query terms the document contains. */
  matchedTerms: number;
  /** The contributions summed in query order. */
  sum: number;
  /** The score: `sum`, times `matchedTerms` when the parameters ask for the term-count boost. */
  score: number;
}

/** A query term found in the index: its text and term number. */
export interface ExplainedTerm {
  text: string;
  term: number;
}

/**
 * Explains document `doc`'s score under `context` for the query terms `terms` (in query order), with the same
 * expressions, summed in the same order, as the top-k kernels: `score` is bit for bit what a search returns.
 */
export function explainBm25Score(context: ScoringContext, docId: string, doc: number, terms: readonly ExplainedTerm[], unknownTerms: readonly string[]): Bm25Explanation {
  const { index, params } = context;
  const rows: Bm25TermContribution[] = [];
  let sum = 0;
  let matched = 0;
  for (const { text, term } of terms) {
    const tf = frequencyIn(context, term, doc);
    const idf = context.idf(term);
    const contribution = tf > 0 ? context.contribution(idf, tf, doc) : 0;
    if (tf > 0) {
      sum += contribution;
      matched++;
    }
    rows.push({ term: text, documentFrequency: index.termStarts[term + 1]! - index.termStarts[term]!, idf, termFrequency: tf, contribution });
  }
  return {
    docId,
    params: { ...params },
    documentCount: index.documentCount,
    documentLength: index.lengths[doc]!,
    averageLength: index.averageLength,
    lengthNorm: context.lengthNorm(doc),
    terms: rows,
    unknownTerms: [...unknownTerms],
    matchedTerms: matched,
    sum,
    score: params.termCountBoost ? sum * matched : sum,
  };
}

/** The term's frequency in the document, 0 when its postings do not hold it. */
function frequencyIn(context: ScoringContext, term: number, doc: number): number {
  const at = positionOf(context.index, term, doc);
  return at < 0 ? 0 : freqAt(context.index.postingFreqs, at);
}
