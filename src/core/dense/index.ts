// The door of dense: vector matrices, compact vectors and exact top-k search over them.
export { defaultRescoreFactor, searchCompact, searchCompactExact, type CompactSearchOptions, type ExactCompactResult } from './compact-search.ts';
export { canShareMemory, CompactVectors, type SharedCompactVectors } from './compact-vectors.ts';
export { searchDense } from './dense-search.ts';
export { searchMaxSim } from './maxsim.ts';
export { MultiVectorStore } from './multi-vector-store.ts';
export { RowArena } from './row-arena.ts';
export { SCANNER_SLOTS } from './scanner-slots.ts';
export { type RowRangeSearch, searchDenseSharded, splitRows } from './sharded-search.ts';
export {
  adoptVectorSet, identityMismatch, type LoadedVectorForm, type LoadedVectors, shareableVectorSet,
  type ShareableVectorSet, shareMismatch, vectorSetIdentity, type VectorSetIdentity, vectorShareKey,
} from './shared-vector-set.ts';
export { loadSpooledCompactVectors } from './spooled-vectors.ts';
export {
  assertCompleteSet, loadCompactVectors, loadTokenStore, loadVectorMatrix, storedFloatRows,
} from './stored-vectors.ts';
export { type DenseHit, mergeTopK } from './top-k.ts';
export {
  COMPACT_FROM_ROWS, compactFormOf, resolveVectorForm, type VectorForm, type VectorFormChoice,
} from './vector-form.ts';
export { VectorMatrix } from './vector-matrix.ts';
