// The door of fusion: reciprocal-rank and convex fusion of ranked lists.
export { fuseConvex } from './convex.ts';
export { fuse, type FusionConfig } from './fuse.ts';
export { NORMALIZE_METHODS, type NormalizeMethod } from './normalize.ts';
export { DEFAULT_RRF_K, fuseRrf } from './rrf.ts';
export type { FusionExplanation } from './explain.ts';
export { explainConvex, explainRrf } from './explain.ts';
