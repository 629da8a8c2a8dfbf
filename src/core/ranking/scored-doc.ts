/** A document id with the score one retriever gave it. Higher is better. */
export interface ScoredDoc {
  id: string;
  score: number;
}

/** A result with the index terms of the query that the scorer matched in it (BM25), for highlighting. */
export interface MatchedDoc extends ScoredDoc {
  terms: readonly string[];
}
