// The public API of the core. Everything outside src/core imports from here and nowhere else.
export type { CorpusDocument, CorpusQuery, Qrel, IngestIssue } from './corpus/types.ts';
export type { ScoredDoc } from './retrieval/types.ts';
export { Analyzer, DEFAULT_ANALYZER_OPTIONS } from './text/analyzer.ts';
export type { AnalyzerOptions, TextToken } from './text/analyzer.ts';
export { ENGLISH_STOP_WORDS } from './text/stop-words.ts';
export { highlightSegments } from './text/highlight.ts';
export type { TextSegment } from './text/highlight.ts';
export { Bm25Index } from './bm25/bm25-index.ts';
export type { Bm25Hit, SerializedBm25Index } from './bm25/bm25-index.ts';
export { OKAPI_BM25, MINISEARCH_BM25, validateBm25Params } from './bm25/params.ts';
export type { Bm25Params } from './bm25/params.ts';
export { StorageFullError } from './storage/corpus-store.ts';
export type { CorpusStore, CorpusRecord, CorpusCommit } from './storage/corpus-store.ts';
export { MemoryCorpusStore } from './storage/memory-corpus-store.ts';
export { loadCorpus } from './loader/load-corpus.ts';
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
} from './corpus/ingest.ts';
export type { SniffResult } from './corpus/sniff.ts';
export { blobSource } from './corpus/source.ts';
export type { FileSource } from './corpus/source.ts';
