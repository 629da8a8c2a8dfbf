// The public API of the core. Everything outside src/core imports from here and nowhere else.
export type { CorpusDocument, CorpusQuery, Qrel, IngestIssue } from './corpus/types.ts';
export type { ScoredDoc } from './ranking/scored-doc.ts';
export { Analyzer, DEFAULT_ANALYZER_OPTIONS } from './text/analyzer.ts';
export type { AnalyzerOptions } from './text/analyzer.ts';
export { highlightSegments } from './text/highlight.ts';
export type { TextSegment } from './text/highlight.ts';
export { Bm25Index } from './bm25/bm25-index.ts';
export type { Bm25Hit, SerializedBm25Index } from './bm25/bm25-index.ts';
export { MiniSearchBm25 } from './bm25/minisearch-bm25.ts';
export { OKAPI_BM25, MINISEARCH_BM25 } from './bm25/params.ts';
export type { Bm25Params } from './bm25/params.ts';
export { StorageFullError } from './storage/storage-full-error.ts';
export type { CorpusStore, CorpusRecord, CorpusCommit, RemoteCorpusRef } from './storage/corpus-store.ts';
export { MemoryCorpusStore } from './storage/memory-corpus-store.ts';
export { CorpusLoadError, DuplicateCorpusError, loadCorpus, newCorpusId } from './loader/load-corpus.ts';
export { IndexOnlyCorpusStore } from './storage/index-only-corpus-store.ts';
export { findDocuments } from './loader/find-documents.ts';
export { SpooledCorpusStore } from './storage/spooled-corpus-store.ts';
export type { DocumentSpool } from './storage/document-spool.ts';
export type { VectorSpool } from './storage/vector-spool.ts';
export type { LoadCorpusOptions, LoadProgress, LoadCorpusResult } from './loader/load-corpus.ts';
export type { Retriever } from './retrieval/retriever.ts';
export { Bm25Retriever } from './retrieval/bm25-retriever.ts';
export { runQueries } from './retrieval/run-queries.ts';
export { gqrRerank, gqrPool, describeGqrPool, resolveGqrConfig, DEFAULT_GQR_CONFIG } from './gqr/index.ts';
export type { GqrInput, GqrConfig, GqrTrace } from './gqr/index.ts';
export type { QrelsMap, RunMap, LineIssue } from './eval/types.ts';
export { parseMeasure, parseMeasures, DEFAULT_MEASURES } from './eval/measures.ts';
export type { Measure } from './eval/measures.ts';
export { rankForEvaluation } from './eval/ranking.ts';
export { evaluateRun, buildQrelsMap } from './eval/evaluate.ts';
export { parseTrecRun, formatTrecRun } from './eval/run-file.ts';
export { parseQrels } from './eval/qrels-file.ts';
export { exactMatch, tokenF1, isValidAnswerList } from './eval/answers.ts';
export { mulberry32 } from './eval/prng.ts';
export { DEFAULT_PERMUTATIONS, DEFAULT_SEED, pairedRandomizationTest } from './eval/randomization.ts';
export { compareRuns } from './eval/compare.ts';
export { sniffFields } from './corpus/ingest.ts';
export type {
  IngestSummary,
  FieldMapping,
  TextEncodingChoice,
} from './corpus/ingest.ts';
export { TEXT_ENCODINGS } from './corpus/text-decoding.ts';
export type { FileSource } from './corpus/source.ts';
export { DEFAULT_RRF_K } from './fusion/rrf.ts';
export { NORMALIZE_METHODS, type NormalizeMethod } from './fusion/normalize.ts';
export { VectorMatrix } from './dense/vector-matrix.ts';
export {
  adoptVectorSet,
  identityMismatch,
  shareableVectorSet,
  shareMismatch,
  vectorSetIdentity,
  vectorShareKey,
  type LoadedVectorForm,
  type LoadedVectors,
  type ShareableVectorSet,
  type VectorSetIdentity,
} from './dense/shared-vector-set.ts';
export { searchDense } from './dense/dense-search.ts';
export {
  canShareMemory,
  CompactVectors,
  SCANNER_SLOTS,
  type SharedCompactVectors,
} from './dense/compact-vectors.ts';
export { defaultRescoreFactor, searchCompact } from './dense/compact-search.ts';
export {
  COMPACT_FROM_ROWS,
  resolveVectorForm,
  type VectorFormChoice,
} from './dense/vector-form.ts';
export { mergeTopK, type DenseHit } from './dense/top-k.ts';
export { MultiVectorStore } from './dense/multi-vector-store.ts';
export {
  loadEmbedder,
  Embedder,
  type EmbeddingDevice,
  type ModelLoadProgress,
  type TransformersModule,
} from './embedding/embedder.ts';
export { EMBEDDING_MODEL_PRESETS, preferredServedPreset } from './embedding/registry.ts';
export { documentText } from './embedding/document-text.ts';
export {
  DTYPE_FILES,
  howToGetModel,
  presenceInServedFiles,
  probeAppModel,
  readServedModelFiles,
  type AppModelPresence,
} from './embedding/app-model-presence.ts';
export {
  describeEmbeddingModel,
  sameEmbeddingModel,
  type EmbeddingDtype,
  type EmbeddingModelInfo,
  type EmbeddingPrefixes,
  type QueryEmbedding,
} from './embedding/model-info.ts';
export { describePipeline, defaultSpec, isComplete, PIPELINE_KINDS, DEFAULT_CC_WEIGHT } from './retrieval/pipeline-spec.ts';
export type { PipelineSpec } from './retrieval/pipeline-spec.ts';
export { buildRetriever } from './retrieval/build-retriever.ts';
export type { RetrievalResources } from './retrieval/build-retriever.ts';
export type { ConnectionTestResult, LlmProvider, SamplingSettings } from './llm/types.ts';
export { OpenAiCompatibleProvider } from './llm/openai-provider.ts';
export { abortError, isAbortError, throwIfAborted } from './abort/abort.ts';
export { LLM_PRESETS, findLlmPreset } from './llm/presets.ts';
export {
  extractFinalAnswer,
  parseHdsAction,
  type FinalAnswer,
  type HdsAction,
  type HdsActionMarker,
} from './hds/parse-action.ts';
export { DEFAULT_HDS_CONFIG, type HdsConfig } from './hds/config.ts';
export { runHds } from './hds/run-hds.ts';
export { protocolBreakage, type ProtocolBreakage } from './hds/protocol-breakage.ts';
export { FINAL_ANSWER_MODES, type FinalAnswerMode } from './hds/final-answer.ts';
export { PLAN_PROMPT_VARIANTS, type PlanPromptVariant } from './hds/prompts.ts';
export { FAILURE_CLASSES, failureClassesOf, type FailureClass } from './hds/failure-classes.ts';
export {
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
  type TextRetriever,
  type RetrievedPassage,
  HDS_PROTOCOL,
} from './hds/types.ts';
export { type BaselineRun } from './hds/baselines/baseline-run.ts';
export { DEFAULT_SINGLE_SHOT_CONFIG } from './hds/baselines/single-shot.ts';
export { DEFAULT_IRCOT_CONFIG } from './hds/baselines/ircot.ts';
export {
  DEFAULT_DECOMPOSITION_CONFIG,
} from './hds/baselines/decomposition.ts';
export {
  buildRunRecord,
  rescoreRunRecord,
  runMapOfRecord,
  summarizeRun,
  checkRunName,
  type RunRecord,
  type RunSummary,
  type QueryRanking,
} from './runs/run-record.ts';
export { WORKBENCH_VERSION } from './runs/workbench-version.ts';
export {
  runEnvironment,
  describeRunHost,
  sha256Hex,
  storedModelFiles,
  type RunEnvironment,
  type RunEnvironmentSource,
  type HostEnvironment,
} from './runs/run-environment.ts';
export type { ModelFileHash } from './embedding/model-file-hash.ts';
export { describeRunPipeline } from './runs/run-pipeline.ts';
export { exportRunJson, exportRunsJson, parseRunJson, parseRunsJson } from './runs/run-json.ts';
export { exportRunTrec } from './runs/run-trec.ts';
export { findUnknownDocuments, importTrecRun, type UnknownDocuments } from './runs/import-trec-run.ts';
export { compareRunRankings, type RunComparison } from './runs/run-comparison.ts';
export { formatCsv, type CsvCell } from './runs/csv.ts';
export {
  comparisonCsv,
  perQueryCsv,
  significanceMark,
  SIGNIFICANCE_LEVELS,
  type PerQueryComparisonRow,
} from './runs/comparison-csv.ts';
export type { RunStore } from './runs/run-store.ts';
export {
  defaultComparison,
  groupRuns,
  parseRunFilter,
  filterRunGroups,
  selectionState,
  setSelected,
  selectRange,
  type RunGroup,
  type RunFilter,
} from './runs/run-list.ts';
export { prepareRunImport, describeImportMark, type RunAlreadyHere } from './runs/import-runs.ts';
export { MemoryRunStore } from './runs/memory-run-store.ts';
export { passageRetriever } from './hds/passage-retriever.ts';
export { AGENT_METHODS, AGENT_METHOD_LABELS, type AgentMethod, type AgentSettings } from './hds/agent-run.ts';
export { scoreAgentRun } from './hds/question-metrics.ts';
export {
  runBatchItems,
  aggregateBatch,
  budgetSweepVariants,
  type BatchQuestion,
  type BatchVariant,
  type BatchItem,
  type BatchAggregate,
  type BatchProgress,
  type BudgetParam,
} from './hds/batch.ts';
export {
  stripSecrets,
  formatAgentRunsFile,
  type AgentRunsFile,
  type SavedAgentRun,
  type SavedQuestionRun,
  type SavedBatchRun,
} from './hds/saved-run.ts';
export { TransformersTextProvider, type TextGenerationDevice, type TextModelSource } from './llm/transformers-provider.ts';
export {
  LOCAL_IN_BROWSER_MODELS,
  findLocalInBrowserModel,
  probeAppTextModel,
  howToGetTextModel,
  type LocalInBrowserModel,
} from './llm/in-browser-models.ts';
export {
  createLlmProvider,
  samplingOf,
  samplingSettingsOf,
  type LlmProviderSettings,
  type ProviderHost,
} from './llm/provider-settings.ts';
export { embeddingModelKey, modelIdOfKey } from './embedding/model-key.ts';
export { presetForModel, describeModelSource, HUGGING_FACE_HOST, type EmbeddingModelSource } from './embedding/model-source.ts';
export { embedCorpus, defaultChunkRows, defaultLengthSortWindow, type EmbedCorpusProgress } from './use-cases/embed-corpus.ts';
export { measureEmbeddingSpeed, secondsToEmbed } from './use-cases/embedding-speed.ts';
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
export { loadSpooledCompactVectors } from './dense/spooled-vectors.ts';
export { searchDenseSharded, splitRows, type RowRangeSearch } from './dense/sharded-search.ts';
export { type DenseIndex } from './retrieval/dense-retriever.ts';
export { DEFAULT_FETCH_K_MULTIPLIER } from './retrieval/fusion-retriever.ts';
export { theoreticalMinScore } from './retrieval/pipeline-spec.ts';
export type { DensePipelineSpec, RrfPipelineSpec, CcPipelineSpec } from './retrieval/pipeline-spec.ts';
export {
  GqrRetriever,
  tracePrepared,
  type GqrPrepared,
  type GqrOutcome,
} from './retrieval/gqr-retriever.ts';
export {
  SWEEP_KEYS,
  SWEEP_MODE_VALUES,
  SweepGridError,
  sweepKeyLabel,
  isNumericSweepKey,
  parseGridAxis,
  validateGrid,
  expandGrid,
  describeSettings,
  type SweepKey,
  type SweepValue,
  type GridAxis,
  type GridPoint,
  DEFAULT_CC_WEIGHTS,
  type SweepJob,
  type SweepPreparedQuery,
  type QuerySweepResult,
  collectSweepRuns,
  type SweepRuns,
  evaluateSweep,
  type SweepEvaluation,
  type SweepRunScores,
  type WinTieLoss,
  sweepQueries,
  prepareSweepQueries,
  sweepPreparedQueries,
  sweepPreparedQueriesInTasks,
  type SweepProgress,
} from './sweep/index.ts';
export type { GqrPipelineSpec } from './retrieval/pipeline-spec.ts';
// Use cases: the workflows every host (worker, CLI, test) runs the same way.
export { searchCorpus, type CorpusSearchHit, type CorpusSearchResult } from './use-cases/search-corpus.ts';
export { runQuerySet, type QuerySetRequest } from './use-cases/run-query-set.ts';
export { runSweep, type SweepDeps } from './use-cases/run-sweep.ts';
export { embedCorpusInMemory, type DocumentVectorCache } from './use-cases/embed-in-memory.ts';
export { sweepRunRecords, labSweepsFromRuns, type SavedSweep } from './runs/saved-sweep.ts';
export { summarizeAgentRun, checkAgentRunName, exportAgentRuns, importAgentRuns, type AgentRunStore, type AgentRunSummary } from './hds/agent-run-store.ts';
export { MemoryAgentRunStore } from './hds/memory-agent-run-store.ts';
export { withApiKey, llmSettingsRecord, activeWithKey, secretsOf, type SettingsStore, type LlmSettingsRecord } from './llm/settings-store.ts';
export {
  CUSTOM_PROVIDER,
  IN_BROWSER_PROVIDER,
  switchProvider,
} from './llm/provider-choice.ts';
export {
  runQuestion,
  runBatch,
  resumeBatch,
  datasetQuestions,
  batchLockName,
  type AgentRunDeps,
  type QuestionRequest,
  type BatchRequest,
} from './use-cases/agent-runs.ts';
export { deleteCorpus, type CorpusRemoval } from './use-cases/delete-corpus.ts';
export {
  NUMERIC_RULES,
  checkedNumber,
  describeRule,
  numberProblem,
  type NumericRule,
} from './options/numeric-rules.ts';
export { redactText } from './secrets/redact.ts';
export { idRecord } from './ids/ids.ts';
export { formatBytes } from './storage/format-bytes.ts';
export { storageFullAdvice, type StorageAfterFailure } from './storage/storage-full-advice.ts';
export {
  SERVE_API_PREFIX,
  SERVE_MAX_BODY_BYTES,
  SERVE_MAX_STREAMS,
  ServeError,
  preparedFromJson,
  type ServedCorpusInfo,
} from './remote/serve-protocol.ts';
export { createServeHandler, hostProblem, type ServedCorporaState, type ServedCorpus, type ServeResponse } from './remote/serve-handler.ts';
export { WorkbenchServerClient, normalizeServerUrl } from './remote/server-client.ts';
export {
  RemoteAwareCorpusStore,
  RemoteRetriever,
  routedResources,
  remoteCorpusRecord,
  remoteRunConfig,
} from './remote/remote-corpus.ts';
export {
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
  type RecipeExperiment,
} from './runs/recipe.ts';
export { batchRequestOfRecipe, llmDifferences } from './use-cases/batch-recipe.ts';
export { sweepRecipeExperiment, sweepRequestOfRecipe } from './runs/sweep-recipe.ts';
export { exportCorpusSnapshot, importCorpusSnapshot, type SnapshotProgress } from './use-cases/corpus-snapshot.ts';
export { OpenSearchClient } from './opensearch/opensearch-client.ts';
export { OpenSearchCorpusStore } from './opensearch/cluster-corpus-store.ts';
export { openSearchResources, type ClusterKnnMode } from './opensearch/cluster-retrievers.ts';
export { DEFAULT_HNSW } from './opensearch/cluster-index.ts';
export { indexIntoOpenSearch, setClusterBm25 } from './opensearch/index-into-opensearch.ts';
export {
  alignToCorpus,
  cosine,
  readVectorFiles,
  sampleRows,
  storeImportedVectors,
  VectorImportError,
  type VectorIssue,
} from './use-cases/vector-import.ts';
