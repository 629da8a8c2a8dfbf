/** A document id with the score one retriever gave it. Higher is better. */
export interface ScoredDoc {
  id: string;
  score: number;
}
