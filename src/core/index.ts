// The public API of the core. Everything outside src/core imports from here and nowhere else.
export type { CorpusDocument, CorpusQuery, Qrel, IngestIssue } from './corpus/types.ts';
export type { ScoredDoc } from './retrieval/types.ts';
export { Analyzer, DEFAULT_ANALYZER_OPTIONS } from './text/analyzer.ts';
export type { AnalyzerOptions, TextToken } from './text/analyzer.ts';
export { ENGLISH_STOP_WORDS } from './text/stop-words.ts';
export { highlightSegments } from './text/highlight.ts';
export type { TextSegment } from './text/highlight.ts';
export { Bm25Index } from './bm25/bm25-index.ts';
export type { Bm25Hit, SerializedBm25Index, SerializedMiniSearchBm25Index } from './bm25/bm25-index.ts';
export { MiniSearchBm25 } from './bm25/minisearch-bm25.ts';
export { OKAPI_BM25, MINISEARCH_BM25, validateBm25Params } from './bm25/params.ts';
export type { Bm25Params } from './bm25/params.ts';
export { StorageFullError } from './storage/corpus-store.ts';
export type { CorpusStore, CorpusRecord, CorpusCommit } from './storage/corpus-store.ts';
export { MemoryCorpusStore } from './storage/memory-corpus-store.ts';
export { CorpusLoadError, loadCorpus, newCorpusId } from './loader/load-corpus.ts';
export { IndexOnlyCorpusStore } from './storage/index-only-corpus-store.ts';
export type { DocumentFetcher } from './storage/index-only-corpus-store.ts';
export { findDocuments } from './loader/find-documents.ts';
export type { LoadCorpusOptions, LoadProgress, LoadCorpusResult } from './loader/load-corpus.ts';
export type { Retriever } from './retrieval/retriever.ts';
export { Bm25Retriever } from './retrieval/bm25-retriever.ts';
export { runQueries } from './retrieval/run-queries.ts';
export { gqrRerank, gqrRerankWithTrace, gqrFetchK, resolveGqrConfig, DEFAULT_GQR_CONFIG } from './gqr/index.ts';
export type { GqrInput, GqrConfig, GqrTrace, GqrTracedResult, GqrPath, CandidatePoolMode, ScorerMode, GqrTarget, GqrOptimizer } from './gqr/index.ts';
export type { QrelsMap, RunMap, LineIssue } from './eval/types.ts';
export { parseMeasure, parseMeasures, DEFAULT_MEASURES } from './eval/measures.ts';
export type { Measure, MeasureKind } from './eval/measures.ts';
export { rankForEvaluation, compareCodePoints } from './eval/ranking.ts';
export type { RankingOptions } from './eval/ranking.ts';
export { judgeRanking, measureQuery } from './eval/query-measures.ts';
export type { JudgedRanking } from './eval/query-measures.ts';
export { evaluateRun, buildQrelsMap, buildRunMap, resolveMeasures } from './eval/evaluate.ts';
export type { EvalResult, EvaluateOptions, RunEntry } from './eval/evaluate.ts';
export { parseTrecRun, readTrecRunLines, formatTrecRun } from './eval/run-file.ts';
export type { RunReadResult } from './eval/run-file.ts';
export { parseQrels, readQrelsLines } from './eval/qrels-file.ts';
export type { QrelsReadResult } from './eval/qrels-file.ts';
export { evidenceScores, isValidEvidence } from './eval/evidence.ts';
export type { EvidenceScores, EvidenceRelevance } from './eval/evidence.ts';
export { normalizeAnswer, exactMatch, tokenF1, isValidAnswerList } from './eval/answers.ts';
export { mulberry32 } from './eval/prng.ts';
export { pairedRandomizationTest, DEFAULT_PERMUTATIONS, DEFAULT_SEED } from './eval/randomization.ts';
export type { RandomizationOptions } from './eval/randomization.ts';
export { compareRuns, TIE_TOLERANCE } from './eval/compare.ts';
export type { ComparisonRow, CompareOptions } from './eval/compare.ts';
export { ingest, sniffFields, DEFAULT_BATCH_SIZE } from './corpus/ingest.ts';
export type {
  IngestOptions,
  IngestBatch,
  IngestProgress,
  IngestSummary,
  IngestFileSummary,
  IngestHandlers,
  PassageOptions,
  FieldMapping,
  TextEncodingChoice,
} from './corpus/ingest.ts';
export type { SniffResult } from './corpus/sniff.ts';
export { blobSource } from './corpus/source.ts';
export { BinaryFileError, TEXT_ENCODINGS } from './corpus/text-decoding.ts';
export type { FileSource } from './corpus/source.ts';
export { fuseRrf, DEFAULT_RRF_K, type RrfOptions } from './fusion/rrf.ts';
export { fuseConvex, type ConvexOptions } from './fusion/convex.ts';
export { normalizeScores, NORMALIZE_METHODS, MISSING_SCORE_FLOOR, type NormalizeMethod } from './fusion/normalize.ts';
export { fuse, type FusionConfig } from './fusion/fuse.ts';
export { ChunkedRows, DEFAULT_CHUNK_ROWS } from './dense/chunked-rows.ts';
export { VectorMatrix, type VectorMatrixOptions } from './dense/vector-matrix.ts';
export { searchDense, type DenseSearchOptions } from './dense/dense-search.ts';
export {
  CompactVectors,
  canShareMemory,
  SCANNER_SLOTS,
  type CompactVectorsOptions,
  type FloatRowSource,
  type SharedCompactVectors,
} from './dense/compact-vectors.ts';
export { searchCompact, type CompactFirstPass, type CompactSearchOptions } from './dense/compact-search.ts';
export {
  COMPACT_FROM_ROWS,
  VECTOR_FORMS,
  compactFormOf,
  resolveVectorForm,
  type VectorForm,
  type VectorFormChoice,
} from './dense/vector-form.ts';
export { vectorKernels, wasmKernelsAvailable, type KernelChoice, type VectorKernels } from './dense/kernels/vector-kernels.ts';
export { TopKHeap, mergeTopK, type DenseHit } from './dense/top-k.ts';
export { MultiVectorStore, type MultiVectorStoreOptions } from './dense/multi-vector-store.ts';
export { maxSimScore, searchMaxSim } from './dense/maxsim.ts';
export {
  loadEmbedder,
  Embedder,
  type EmbedderOptions,
  type EmbeddingDevice,
  type EmbeddingDtype,
  type ModelLoadProgress,
  type EmbedProgress,
  type EmbedDocumentsOptions,
  type EmbeddedBatch,
  type EmbeddedTokenBatch,
  type EmbedDocumentsResult,
  type TransformersModule,
} from './embedding/embedder.ts';
export { EMBEDDING_MODEL_PRESETS, findEmbeddingPreset, type EmbeddingModelPreset } from './embedding/registry.ts';
export { documentText } from './embedding/document-text.ts';
export { DTYPE_FILES, howToGetModel, modelFilesFor, probeAppModel, type AppModelPresence } from './embedding/app-model-presence.ts';
export {
  describeEmbeddingModel,
  sameEmbeddingModel,
  assertSameEmbeddingModel,
  type EmbeddingModelInfo,
  type EmbeddingPooling,
  type EmbeddingPrefixes,
  type QueryEmbedding,
  type TokenEmbedding,
  type QueryTokenEmbedding,
} from './embedding/model-info.ts';
export { describePipeline, defaultSpec, childrenOf, isComplete, PIPELINE_KINDS, DEFAULT_CC_WEIGHT, type DefaultSpec } from './retrieval/pipeline-spec.ts';
export type { PipelineSpec, Bm25PipelineSpec } from './retrieval/pipeline-spec.ts';
export { buildRetriever } from './retrieval/build-retriever.ts';
export type { RetrievalResources } from './retrieval/build-retriever.ts';
export type { ChatMessage, TokenUsage, LlmRequest, LlmDelta, LlmCallOptions, LlmResponse, LlmDescription, ConnectionTestResult, LlmProvider } from './llm/types.ts';
export { OpenAiCompatibleProvider, networkFailureMessage, type OpenAiCompatibleConfig } from './llm/openai-provider.ts';
export { LlmError, isAbortError, type LlmErrorKind } from './llm/errors.ts';
export { LLM_PRESETS, findLlmPreset, type LlmPreset } from './llm/presets.ts';
export { sumUsage, zeroUsage } from './llm/usage.ts';
export {
  parseHdsAction,
  parseHdsResponse,
  splitReasoning,
  extractBoxed,
  answerOutsideReasoning,
  type HdsAction,
  type HdsParsedResponse,
  type HdsTokenSpelling,
  type HdsActionMarker,
} from './hds/parse-action.ts';
export { DEFAULT_HDS_CONFIG, resolveHdsConfig, validateHdsConfig, effectiveK, HdsConfigError, type HdsConfig } from './hds/config.ts';
export { DEFAULT_PLAN_PROMPT, DEFAULT_FINAL_PROMPT } from './hds/prompts.ts';
export { runHds, HdsRunError } from './hds/run-hds.ts';
export { protocolBreakage, emptyBreakage, type ProtocolBreakage } from './hds/protocol-breakage.ts';
export {
  HDS_PROTOCOL,
  type HdsRun,
  type HdsTurnRecord,
  type HdsFinalCallRecord,
  type HdsRetrievalRecord,
  type HdsResultRecord,
  type HdsRepeatedQuery,
  type HdsRetrievalFailure,
  type LlmCallRecord,
  type TimeSpan,
  type HdsTerminatedBy,
  type HdsEvent,
  type HdsRunOptions,
  type AgentDeps,
  type TextRetriever,
  type RetrievedPassage,
} from './hds/types.ts';
export { BaselineRunError, type BaselineRun, type BaselineKind, type BaselineOptions } from './hds/baselines/baseline-run.ts';
export { runSingleShot, DEFAULT_SINGLE_SHOT_CONFIG, type SingleShotConfig, type SingleShotRun } from './hds/baselines/single-shot.ts';
export { runIrcot, DEFAULT_IRCOT_CONFIG, type IrcotConfig, type IrcotRun, type IrcotDetails } from './hds/baselines/ircot.ts';
export {
  runDecomposition,
  parseSubQuestions,
  DEFAULT_DECOMPOSITION_CONFIG,
  type DecompositionConfig,
  type DecompositionRun,
  type DecompositionDetails,
} from './hds/baselines/decomposition.ts';
export {
  buildRunRecord,
  rescoreRunRecord,
  scoreRankings,
  runMapOfRankings,
  runMapOfRecord,
  rankingsOfRunMap,
  summarizeRun,
  checkRunName,
  newRunId,
  type RunRecord,
  type RunRecordInput,
  type RunSummary,
  type RunPipeline,
  type ImportedRunSource,
  type RunVersions,
  type QueryRanking,
  type RunMetrics,
} from './runs/run-record.ts';
export { WORKBENCH_VERSION } from './runs/workbench-version.ts';
export {
  runEnvironment,
  runtimeOfEnvironment,
  describeRunHost,
  sha256Hex,
  readRunEnvironment,
  storedModelFiles,
  type RunEnvironment,
  type RunEnvironmentSource,
  type HostEnvironment,
  type RunHost,
  type ModelFileHash,
} from './runs/run-environment.ts';
export { describeRunPipeline, modelsOfPipeline } from './runs/run-pipeline.ts';
export { withoutSecrets, isSecretKey } from './runs/redact-secrets.ts';
export { exportRunJson, exportRunsJson, parseRunJson, parseRunsJson, RunJsonError, RUN_JSON_FORMAT, RUN_JSON_VERSION } from './runs/run-json.ts';
export { exportRunTrec, runTag } from './runs/run-trec.ts';
export { findUnknownDocuments, importTrecRun, TrecImportError, type TrecImportOptions, type TrecImportResult, type UnknownDocuments } from './runs/import-trec-run.ts';
export { compareRunRankings, type ComparedRun, type RunComparison } from './runs/run-comparison.ts';
export { csvField, formatCsv, type CsvCell } from './runs/csv.ts';
export {
  comparisonCsv,
  perQueryCsv,
  significanceMark,
  SIGNIFICANCE_LEVELS,
  type ComparisonCsvOptions,
  type PerQueryComparisonRow,
} from './runs/comparison-csv.ts';
export type { RunStore } from './runs/run-store.ts';
export { MemoryRunStore } from './runs/memory-run-store.ts';
export { passageRetriever, type DocumentLookup } from './hds/passage-retriever.ts';
export { runAgent, agentMethodOf, AGENT_METHODS, AGENT_METHOD_LABELS, type AgentMethod, type AgentRun, type AgentSettings, type RunAgentOptions } from './hds/agent-run.ts';
export { scoreAgentRun, goldDocumentIds, type QuestionGold, type QuestionMetrics } from './hds/question-metrics.ts';
export {
  runBatchItems,
  aggregateBatch,
  batchKey,
  budgetSweepVariants,
  type BatchQuestion,
  type BatchVariant,
  type BatchItem,
  type BatchAggregate,
  type BatchProgress,
  type BatchOutcome,
  type BudgetParam,
  type RunBatchOptions,
} from './hds/batch.ts';
export {
  stripSecrets,
  formatAgentRunsFile,
  parseAgentRunsFile,
  newSavedRunId,
  AGENT_RUNS_FORMAT,
  type AgentRunsFile,
  type SavedAgentRun,
  type SavedQuestionRun,
  type SavedBatchRun,
  type SavedLlm,
  type SavedRetriever,
} from './hds/saved-run.ts';
export { TransformersTextProvider, generatedText, type TransformersProviderOptions, type TextGenerationDevice } from './llm/transformers-provider.ts';
export {
  createLlmProvider,
  samplingOf,
  type LlmProviderSettings,
  type OpenAiEndpointSettings,
  type InBrowserModelSettings,
  type ProviderHost,
} from './llm/provider-settings.ts';
export { embeddingModelKey, modelIdOfKey } from './embedding/model-key.ts';
export { presetForModel, describeModelSource, HUGGING_FACE_HOST, type EmbeddingModelSource } from './embedding/model-source.ts';
export { embedCorpus, defaultChunkRows, type EmbedCorpusOptions, type EmbedCorpusProgress } from './embedding/embed-corpus.ts';
export {
  VectorStorageFullError,
  type VectorStore,
  type EmbeddingSetRecord,
  type VectorChunk,
  type TokenBatch,
  type EmbeddingProgressUpdate,
} from './storage/vector-store.ts';
export { MemoryVectorStore } from './storage/memory-vector-store.ts';
export { loadVectorMatrix, loadTokenStore, assertCompleteSet, loadCompactVectors, storedFloatRows } from './dense/stored-vectors.ts';
export { searchDenseSharded, splitRows, type RowRangeSearch } from './dense/sharded-search.ts';
export { DenseRetriever, type DenseIndex, type QueryEmbedder, type DenseSearchMode } from './retrieval/dense-retriever.ts';
export { FusionRetriever, DEFAULT_FETCH_K_MULTIPLIER, type FusionMethodConfig } from './retrieval/fusion-retriever.ts';
export { theoreticalMinScore } from './retrieval/pipeline-spec.ts';
export type { DensePipelineSpec, RrfPipelineSpec, CcPipelineSpec } from './retrieval/pipeline-spec.ts';
export {
  GqrRetriever,
  gqrGeometryOf,
  gqrPathOf,
  rerankPrepared,
  tracePrepared,
  isEmbeddingError,
  type GqrGeometry,
  type GqrChildLists,
  type GqrPrepared,
  type GqrOutcome,
  type GqrRetrieverOptions,
} from './retrieval/gqr-retriever.ts';
export * from './sweep/index.ts';
export type { GqrPipelineSpec } from './retrieval/pipeline-spec.ts';
export { EmbeddingError } from './embedding/embedding-error.ts';
// Use cases: the workflows every host (worker, CLI, test) runs the same way.
export { runQuerySet, type QuerySetRequest, type QuerySetDeps, type QuerySetOptions, type QuerySetResult } from './use-cases/run-query-set.ts';
export { runSweep, type SweepRequest, type SweepComputation, type SweepDeps, type SweepUseCaseProgress, type SweepOptions, type SweepResult } from './use-cases/run-sweep.ts';
export { sweepRunRecords, labSweepsFromRuns, sweepTagOf, baselineSpecs, newSweepId, type SavedSweep, type SweepRunTag, type SweepRecordInput, type SweepEnvironment } from './use-cases/saved-sweep.ts';
export { summarizeAgentRun, checkAgentRunName, exportAgentRuns, importAgentRuns, type AgentRunStore, type AgentRunSummary } from './hds/agent-run-store.ts';
export { MemoryAgentRunStore } from './hds/memory-agent-run-store.ts';
export { withApiKey, llmSettingsRecord, activeWithKey, secretsOf, type SettingsStore, type LlmSettingsRecord } from './llm/settings-store.ts';
export { MemorySettingsStore } from './llm/memory-settings-store.ts';
export {
  runQuestion,
  runBatch,
  resumeBatch,
  datasetQuestions,
  savedRetrieverOf,
  questionRunName,
  batchRunName,
  batchLockName,
  type AgentRunDeps,
  type QuestionRequest,
  type BatchRequest,
  type QuestionRunOptions,
  type BatchRunOptions,
} from './use-cases/agent-runs.ts';
export { deleteCorpus, MemoryCorpusRemoval, type CorpusRemoval } from './use-cases/delete-corpus.ts';
export {
  NUMERIC_RULES,
  NumericSettingError,
  checkedNumber,
  describeRule,
  numberProblem,
  type NumericRule,
  type NumericSetting,
} from './options/numeric-rules.ts';
export { REDACTED, StreamRedactor, isSecretFieldName, redactText, redactValue } from './secrets/redact.ts';
export { formatBytes } from './storage/format-bytes.ts';
export { storageFullAdvice, type StorageAfterFailure } from './storage/storage-full-advice.ts';
export { SetChecksum, documentsChecksum, queriesChecksum, qrelsChecksum } from './corpus/content-checksum.ts';
export { Sha256, sha256Sync } from './text/sha256.ts';
export {
  RECIPE_FORMAT,
  RECIPE_VERSION,
  RecipeError,
  corpusDifferences,
  formatRecipe,
  makeRecipe,
  modelDifferences,
  parseRecipe,
  recipeCorpus,
  recipeModels,
  recipeOfRun,
  type Recipe,
  type RecipeCorpus,
  type RecipeExperiment,
  type RecipeModel,
} from './runs/recipe.ts';
export { SnapshotError, SNAPSHOT_VERSION } from './corpus/snapshot-format.ts';
export { exportCorpusSnapshot, importCorpusSnapshot, type SnapshotProgress, type SnapshotOptions } from './use-cases/corpus-snapshot.ts';
