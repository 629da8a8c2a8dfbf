// The door of use-cases: the workflows every host (worker, CLI, test) runs the same way.
export {
  type AgentRunDeps, batchLockName, type BatchRequest, datasetQuestions, type QuestionRequest, resumeBatch, runBatch,
  runQuestion,
} from './agent-runs.ts';
export { batchRequestOfRecipe, llmDifferences } from './batch-recipe.ts';
export { exportCorpusSnapshot, importCorpusSnapshot, type SnapshotProgress } from './corpus-snapshot.ts';
export { type CorpusRemoval, deleteCorpus } from './delete-corpus.ts';
export { defaultChunkRows, embedCorpus, type EmbedCorpusProgress } from './embed-corpus.ts';
export { type DocumentVectorCache, embedCorpusInMemory } from './embed-in-memory.ts';
export { measureEmbeddingSpeed, secondsToEmbed } from './embedding-speed.ts';
export { type QuerySetRequest, runQuerySet } from './run-query-set.ts';
export { runSweep, type SweepDeps } from './run-sweep.ts';
export { type CorpusSearchHit, type CorpusSearchResult, searchCorpus } from './search-corpus.ts';
export {
  alignToCorpus, cosine, readVectorFiles, sampleRows, storeImportedVectors, type VectorFile, VectorImportError, type VectorIssue,
} from './vector-import.ts';
export { explainResult, type ExplainResultRequest, type PartExplanation, type GqrScorePieces } from './explain-result.ts';
