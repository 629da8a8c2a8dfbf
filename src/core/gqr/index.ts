// Public API of Guided Query Refinement (docs/decisions.md#gqr, G1–G4).
export { alignScores, buildCandidatePool, missingScoreFloor, scoreMap } from './candidate-pool.ts';
export {
  type CandidatePoolMode, DEFAULT_GQR_CONFIG, describeGqrPool, type GqrConfig, gqrFetchK, type GqrOptimizer, gqrPool,
  type GqrPoolSize, type GqrTarget, resolveGqrConfig, type ScorerMode,
} from './config.ts';
export { type GqrInput } from './input.ts';
export { gqrRerank, gqrRerankWithTrace } from './rerank.ts';
export { chooseScorerPath, type GqrPath, resolveScorerMode } from './scorer-path.ts';
export { type GqrTrace, type GqrTracedResult } from './trace.ts';
