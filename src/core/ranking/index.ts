// The door of ranking: a scored document, the shape every retriever, fusion and measure shares.
export { type MatchedDoc, type ScoredDoc } from './scored-doc.ts';
