// The public API of the core: what hosts (workers, UI, CLI, bench) use of each domain, taken from the domain's door
// (src/core/<domain>/index.ts), the domains in their order (DESIGN.md). Everything outside src/core imports from here.
export { abortError, isAbortError, throwIfAborted } from './abort/index.ts';
export { idRecord } from './ids/index.ts';
export {
  Analyzer, type AnalyzerOptions, DEFAULT_ANALYZER_OPTIONS, highlightSegments, type TextSegment,
} from './text/index.ts';
export { redactText } from './secrets/index.ts';
export { checkedNumber, describeRule, numberProblem, NUMERIC_RULES, type NumericRule } from './options/index.ts';
export {
  type CorpusDocument, type CorpusQuery, type FieldMapping, type FileSource, type IngestIssue, type IngestSummary,
  type Qrel, sniffFields, TEXT_ENCODINGS, type TextEncodingChoice,
} from './corpus/index.ts';
export {
  type Bm25Hit, Bm25Index, type Bm25Params, MINISEARCH_BM25, MiniSearchBm25, OKAPI_BM25, type SerializedBm25Index,
  type Bm25Explanation,
} from './bm25/index.ts';
export { type ScoredDoc } from './ranking/index.ts';
export {
  buildQrelsMap, compareRuns, DEFAULT_MEASURES, DEFAULT_PERMUTATIONS, DEFAULT_SEED, evaluateRun, exactMatch,
  formatTrecRun, isValidAnswerList, type LineIssue, type Measure, mulberry32, pairedRandomizationTest, parseMeasure,
  parseMeasures, parseQrels, parseTrecRun, type QrelsMap, rankForEvaluation, type RunMap, tokenF1,
  FAMILY_ALPHA, holmAdjust, holmSignificant,
} from './eval/index.ts';
export { DEFAULT_RRF_K, NORMALIZE_METHODS, type NormalizeMethod, type FusionExplanation } from './fusion/index.ts';
export {
  DEFAULT_GQR_CONFIG, describeGqrPool, type GqrConfig, type GqrInput, gqrPool, gqrRerank, type GqrTrace,
  resolveGqrConfig,
} from './gqr/index.ts';
export {
  type AppModelPresence, defaultLengthSortWindow, describeEmbeddingModel, describeModelSource, documentText,
  DTYPE_FILES, Embedder, EMBEDDING_MODEL_PRESETS, type EmbeddingDevice, type EmbeddingDtype, type EmbeddingModelInfo,
  embeddingModelKey, type EmbeddingModelSource, type EmbeddingPrefixes, howToGetModel, HUGGING_FACE_HOST, loadEmbedder, longestFirst,
  type ModelFileHash, modelIdOfKey, type ModelLoadProgress, preferredServedPreset, presenceInServedFiles,
  presetForModel, probeAppModel, type QueryEmbedding, readServedModelFiles, sameEmbeddingModel,
  type TransformersModule,
  encodeSafetensorsMatrix,
} from './embedding/index.ts';
export {
  type ChunkRowReader, type CorpusCommit, type CorpusRecord, type CorpusStore, type DocumentSpool, type EmbeddingProgressUpdate,
  type EmbeddingSetRecord, formatBytes, IndexOnlyCorpusStore, MemoryCorpusStore, MemoryVectorStore,
  type RemoteCorpusRef, rowsOf, SpooledCorpusStore, type StorageAfterFailure, storageFullAdvice, StorageFullError,
  type TokenBatch, type VectorChunk, type VectorSpool, VectorStorageFullError, type VectorStore,
} from './storage/index.ts';
export {
  adoptVectorSet, assertCompleteSet, canShareMemory, COMPACT_FROM_ROWS, CompactVectors, defaultRescoreFactor,
  type DenseHit, identityMismatch, loadCompactVectors, type LoadedVectorForm, type LoadedVectors,
  loadSpooledCompactVectors, loadTokenStore, loadVectorMatrix, mergeTopK, MultiVectorStore, resolveVectorForm, RowArena,
  type RowRangeSearch, SCANNER_SLOTS, searchCompact, searchCompactExact, searchDense, searchDenseSharded, shareableVectorSet,
  type ShareableVectorSet, type SharedCompactVectors, shareMismatch, splitRows, storedFloatRows,
  type VectorFormChoice, VectorMatrix, vectorSetIdentity, type VectorSetIdentity, vectorShareKey,
} from './dense/index.ts';
export {
  Bm25Retriever, buildRetriever, type CcPipelineSpec, DEFAULT_CC_WEIGHT, DEFAULT_FETCH_K_MULTIPLIER, defaultSpec,
  type DenseIndex, type DensePipelineSpec, describePipeline, type GqrOutcome, type GqrPipelineSpec, type GqrPrepared,
  GqrRetriever, isComplete, PIPELINE_KINDS, type PipelineSpec, type RetrievalResources, type Retriever,
  type RrfPipelineSpec, runQueries, theoreticalMinScore, tracePrepared,
} from './retrieval/index.ts';
export {
  CorpusLoadError, DuplicateCorpusError, findDocuments, loadCorpus, type LoadCorpusOptions, type LoadCorpusResult,
  type LoadProgress, newCorpusId,
} from './loader/index.ts';
export {
  collectSweepRuns, DEFAULT_CC_WEIGHTS, describeSettings, evaluateSweep, expandGrid, type GridAxis, type GridPoint,
  isNumericSweepKey, parseGridAxis, prepareSweepQueries, type QuerySweepResult, SWEEP_KEYS, SWEEP_MODE_VALUES,
  type SweepEvaluation, SweepGridError, type SweepJob, type SweepKey, sweepKeyLabel, sweepPreparedQueries,
  sweepPreparedQueriesInTasks, type SweepPreparedQuery, type SweepProgress, sweepQueries, type SweepRuns,
  type SweepRunScores, type SweepValue, validateGrid, type WinTieLoss,
  testBestPoint, type BestPointComparison,
} from './sweep/index.ts';
export {
  activeWithKey, type ConnectionTestResult, createLlmProvider, CUSTOM_PROVIDER, findLlmPreset,
  findLocalInBrowserModel, howToGetTextModel, IN_BROWSER_PROVIDER, LLM_PRESETS, type LlmProvider,
  type LlmProviderSettings, llmSettingsRecord, type LlmSettingsRecord, LOCAL_IN_BROWSER_MODELS,
  type LocalInBrowserModel, OpenAiCompatibleProvider, probeAppTextModel, type ProviderHost, samplingOf,
  type SamplingSettings, samplingSettingsOf, secretsOf, type SettingsStore, switchProvider,
  type TextGenerationDevice, type TextModelSource, TransformersTextProvider, withApiKey,
} from './llm/index.ts';
export {
  buildRunRecord, checkRunName, compareRunRankings, comparisonCsv, corpusDifferences, type CsvCell,
  defaultComparison, describeImportMark, describeRunHost, describeRunPipeline, exportRunJson, exportRunsJson,
  exportRunTrec, filterRunGroups, findUnknownDocuments, formatCsv, formatRecipe, groupRuns, type HostEnvironment,
  importTrecRun, labSweepsFromRuns, makeRecipe, MemoryRunStore, modelDifferences, parseRecipe, parseRunFilter,
  parseRunJson, parseRunsJson, type PerQueryComparisonRow, perQueryCsv, prepareRunImport, type QueryRanking,
  type Recipe, recipeCorpus, RecipeError, type RecipeExperiment, recipeModels, recipeOfRun, rescoreRunRecord,
  type RunAlreadyHere, type RunComparison, runEnvironment, type RunEnvironment, type RunEnvironmentSource,
  type RunFilter, type RunGroup, runMapOfRecord, type RunRecord, type RunStore, type RunSummary, type SavedSweep,
  selectionState, selectRange, setSelected, sha256Hex, SIGNIFICANCE_LEVELS, significanceMark, storedModelFiles,
  summarizeRun, sweepRecipeExperiment, sweepRequestOfRecipe, sweepRunRecords, type UnknownDocuments,
  WORKBENCH_VERSION,
  buildLeaderboard, leaderboardCsv, leaderboardMarkdown, leaderboardMeasures, formatLeaderboardValue, type Leaderboard, type LeaderboardRun,
} from './runs/index.ts';
export {
  AGENT_METHOD_LABELS, AGENT_METHODS, type AgentMethod, type AgentRunsFile, type AgentRunStore, type AgentRunSummary,
  type AgentSettings, aggregateBatch, type BaselineRun, type BatchAggregate, type BatchItem, type BatchProgress,
  type BatchQuestion, type BatchVariant, type BudgetParam, budgetSweepVariants, checkAgentRunName,
  DEFAULT_DECOMPOSITION_CONFIG, DEFAULT_HDS_CONFIG, DEFAULT_IRCOT_CONFIG, DEFAULT_SINGLE_SHOT_CONFIG,
  exportAgentRuns, extractFinalAnswer, FAILURE_CLASSES, type FailureClass, failureClassesOf, FINAL_ANSWER_MODES,
  type FinalAnswer, type FinalAnswerMode, formatAgentRunsFile, HDS_PROTOCOL, type HdsAction, type HdsActionMarker,
  type HdsConfig, type HdsEvent, type HdsFinalCallRecord, type HdsRepeatedQuery, type HdsResultRecord,
  type HdsRetrievalFailure, type HdsRetrievalRecord, type HdsRun, type HdsSearchStep, type HdsTerminatedBy, type HdsTurnRecord,
  importAgentRuns, type LlmCallRecord, MemoryAgentRunStore, parseHdsAction, passageRetriever, PLAN_PROMPT_VARIANTS,
  type PlanPromptVariant, protocolBreakage, type ProtocolBreakage, type RetrievedPassage, runBatchItems, runHds,
  type SavedAgentRun, type SavedBatchRun, type SavedQuestionRun, scoreAgentRun, stripSecrets, summarizeAgentRun,
  type TextRetriever, type TimeSpan,
  REPEATED_BLOCK_POLICIES, type RepeatedBlockPolicy, PLAN_GUARDS,
} from './hds/index.ts';
export {
  type AgentRunDeps, alignToCorpus, batchLockName, type BatchRequest, batchRequestOfRecipe, type CorpusRemoval,
  type CorpusSearchHit, type CorpusSearchResult, cosine, datasetQuestions, defaultChunkRows,
  deleteCorpus, type DocumentVectorCache, embedCorpus, embedCorpusInMemory, type EmbedCorpusProgress,
  exportCorpusSnapshot, importCorpusSnapshot, llmDifferences, measureEmbeddingSpeed, type QuerySetRequest,
  type QuestionRequest, readVectorFiles, resumeBatch, runBatch, runQuerySet, runQuestion, runSweep, sampleRows,
  searchCorpus, secondsToEmbed, type SnapshotProgress, storeImportedVectors, type SweepDeps, VectorImportError,
  type VectorIssue,
  explainResult, type ExplainResultRequest, type PartExplanation, type GqrScorePieces,
} from './use-cases/index.ts';
export {
  createServeHandler, hostProblem, normalizeServerUrl, preparedFromJson, RemoteAwareCorpusStore, remoteCorpusRecord,
  RemoteRetriever, remoteRunConfig, routedResources, SERVE_API_PREFIX, SERVE_MAX_BODY_BYTES, SERVE_MAX_STREAMS,
  type ServedCorporaState, type ServedCorpus, type ServedCorpusInfo, ServeError, type ServeResponse,
  WorkbenchServerClient,
  embedThroughServer, serverEmbeddingModel,
} from './remote/index.ts';
export {
  type ClusterKnnMode, DEFAULT_HNSW, indexIntoOpenSearch, OpenSearchClient, OpenSearchCorpusStore,
  openSearchResources, setClusterBm25,
} from './opensearch/index.ts';
