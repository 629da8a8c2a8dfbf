// Public API of Guided Query Refinement (docs/decisions.md#gqr, G1–G4).
export type { ScoredDoc } from '../ranking/index.ts';
export type { GqrInput } from './input.ts';
export {
  DEFAULT_GQR_CONFIG,
  gqrFetchK,
  gqrPool,
  describeGqrPool,
  type GqrPoolSize,
  resolveGqrConfig,
  type CandidatePoolMode,
  type GqrConfig,
  type GqrOptimizer,
  type GqrTarget,
  type ScorerMode,
} from './config.ts';
export type { GqrPath } from './scorer-path.ts';
export type { GqrTrace, GqrTracedResult } from './trace.ts';
export { gqrRerank, gqrRerankWithTrace } from './rerank.ts';
