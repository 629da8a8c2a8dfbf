import { evaluateRun, resolveMeasures, type EvaluateOptions, DEFAULT_MEASURES, type QrelsMap, type RunMap } from '../eval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import { withoutSecrets } from './redact-secrets.ts';
import { runtimeOfEnvironment, type RunEnvironment } from './run-environment.ts';
import type { RunPipeline } from './run-pipeline.ts';
import { WORKBENCH_VERSION } from './workbench-version.ts';
import { newId } from '../ids/index.ts';

/** Versions of the software that produced a run. */
export interface RunVersions {
  /** The workbench's version (package.json). */
  workbench: string;
  /** Model name → version or revision, for every model the pipeline used (embedding models, LLMs). */
  models?: Record<string, string>;
  /** Inference software and host: `transformers.js`, `onnxruntime-node`/`onnxruntime-web`, `node` or `browser`. */
  runtime?: Record<string, string>;
}

/** One query's ranking: parallel arrays, best first. */
export interface QueryRanking {
  queryId: string;
  /** Document ids, best first. */
  docIds: string[];
  /** Scores of `docIds`, same order; finite numbers. */
  scores: number[];
}

/** Scores of a run against a corpus's qrels. */
export interface RunMetrics {
  /** Measure name → mean over the evaluated queries. */
  aggregate: Record<string, number>;
  /** Query id → measure name → value, for every evaluated query. */
  perQuery: Record<string, Record<string, number>>;
  /** Number of evaluated queries (qrels queries with a relevant judgement). */
  queryCount: number;
}

/** A saved run: rankings of a corpus's query set with everything needed to reproduce and trust them. */
export interface RunRecord {
  /** Unique id (`r-…`). */
  id: string;
  /** Shown to the user; renamable. */
  name: string;
  /** The corpus whose query set was run. */
  corpusId: string;
  /** The corpus's name when the run was made (corpora can be renamed or deleted). */
  corpusName: string;
  /** The pipeline spec that produced the rankings, or the imported file. */
  pipeline: RunPipeline;
  /** The retriever's full configuration (every setting that affects the ranking, variants included). */
  config: Record<string, unknown>;
  /** When the run was made (ms since the epoch). */
  createdAt: number;
  /** Versions of the workbench and the models used. */
  versions: RunVersions;
  /** The software, host and model file hashes behind the run; absent on runs saved before it was recorded and on imported TREC files. */
  environment?: RunEnvironment;
  /** Results per query that were asked for. */
  k: number;
  /** Rankings per query, in query-set order. */
  rankings: QueryRanking[];
  /** Canonical names of the measures in `metrics`. */
  measures: string[];
  /** Metrics against the corpus's qrels; null when the corpus has no relevance judgements. */
  metrics: RunMetrics | null;
  /** Time spent retrieving, in ms; null for imported runs. */
  elapsedMs: number | null;
  /** Free text. */
  notes: string;
  /** Set when the run came from a file (JSON or TREC) rather than being made here. */
  imported?: RunImportMark;
}

/** Where and when an imported run was read. */
export interface RunImportMark {
  /** The file's name. */
  fileName: string;
  /** When it was imported (ms since the epoch). */
  at: number;
  /** The run's id in the file (JSON runs), so a re-import of the same run is recognised. */
  originalId?: string;
}

/** A run without its rankings: what lists show. */
export type RunSummary = Omit<RunRecord, 'rankings'> & {
  /** Number of queries with a ranking. */
  rankedQueryCount: number;
};

/** What `buildRunRecord` needs. */
export interface RunRecordInput {
  /** Id to use; a new one by default. */
  id?: string;
  name: string;
  corpusId: string;
  corpusName: string;
  pipeline: RunPipeline;
  /** The retriever's configuration (credential keys are dropped). Default {}. */
  config?: Readonly<Record<string, unknown>>;
  /** The rankings (each query's list is stored best first, by score). */
  run: RunMap;
  /** Results per query that were asked for. Default: the longest ranking's length (at least 1). */
  k?: number;
  /** The corpus's judgements; without any relevant judgement the run is stored unscored. */
  qrels?: QrelsMap | null;
  /** Measures to score. Default DEFAULT_MEASURES. */
  measures?: readonly string[];
  /** Retrieval time in ms. Default null. */
  elapsedMs?: number | null;
  /** Default now. */
  createdAt?: number;
  /** Models used: name → version. */
  models?: Record<string, string>;
  /** Inference software and host (see {@link RunVersions.runtime}). */
  runtime?: Record<string, string>;
  /** The host's software and the models' file hashes (`runEnvironment`); also fills `versions.runtime`. */
  environment?: RunEnvironment;
  /** Default ''. */
  notes?: string;
  /** Evaluation options (BEIR's identical-id rule, on by default). */
  evaluate?: EvaluateOptions;
}

/** A trimmed, non-empty run name; throws otherwise. */
export function checkRunName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('A run name cannot be empty');
  return trimmed;
}

/** A new run id, unique in practice within one browser. */
export function newRunId(): string {
  return newId('r', 8);
}

/**
 * Builds a RunRecord from rankings: stores each query's documents best first (stable sort by score), scores
 * the run against `qrels` with trec_eval definitions, records the workbench version. Throws on an empty name,
 * a bad k, an empty id or a non-finite score (a saved run must round-trip through TREC and JSON files).
 */
export function buildRunRecord(input: RunRecordInput): RunRecord {
  const name = checkRunName(input.name);
  const rankings = rankingsOfRunMap(input.run);
  const longest = rankings.reduce((max, r) => Math.max(max, r.docIds.length), 0);
  const k = input.k ?? Math.max(1, longest);
  if (!Number.isSafeInteger(k) || k < 1) throw new Error(`k must be a positive integer (got ${k})`);
  const measures = resolveMeasures(input.measures ?? DEFAULT_MEASURES).map((m) => m.name);
  const versions: RunVersions = { workbench: WORKBENCH_VERSION };
  if (input.models && Object.keys(input.models).length > 0) versions.models = { ...input.models };
  const runtime = { ...(input.environment ? runtimeOfEnvironment(input.environment) : {}), ...input.runtime };
  if (Object.keys(runtime).length > 0) versions.runtime = runtime;
  return {
    id: input.id ?? newRunId(),
    name,
    corpusId: input.corpusId,
    corpusName: input.corpusName,
    pipeline: withoutSecrets(input.pipeline),
    config: withoutSecrets({ ...(input.config ?? {}) }),
    createdAt: input.createdAt ?? Date.now(),
    versions,
    ...(input.environment ? { environment: structuredClone(input.environment) } : {}),
    k,
    rankings,
    measures,
    metrics: scoreRankings(rankings, input.qrels ?? null, measures, input.evaluate),
    elapsedMs: input.elapsedMs ?? null,
    notes: input.notes ?? '',
  };
}

/** The same run scored again, against `qrels` with `measures` (e.g. after importing it into another corpus). */
export function rescoreRunRecord(
  record: RunRecord,
  qrels: QrelsMap | null,
  measures: readonly string[] = record.measures,
  options?: EvaluateOptions,
): RunRecord {
  const names = resolveMeasures(measures).map((m) => m.name);
  return { ...record, measures: names, metrics: scoreRankings(record.rankings, qrels, names, options) };
}

/** Scores rankings against qrels; null when no qrels query has a relevant judgement. */
export function scoreRankings(
  rankings: readonly QueryRanking[],
  qrels: QrelsMap | null,
  measures: readonly string[],
  options?: EvaluateOptions,
): RunMetrics | null {
  if (!qrels || !hasRelevantJudgement(qrels)) return null;
  const result = evaluateRun(qrels, runMapOfRankings(rankings), measures, options);
  return { aggregate: result.aggregate, perQuery: result.perQuery, queryCount: Object.keys(result.perQuery).length };
}

function hasRelevantJudgement(qrels: QrelsMap): boolean {
  for (const judgements of qrels.values()) for (const rel of judgements.values()) if (rel > 0) return true;
  return false;
}

/** Rankings as a RunMap (for evaluation, comparison and TREC export). */
export function runMapOfRankings(rankings: readonly QueryRanking[]): RunMap {
  const run: RunMap = new Map();
  for (const r of rankings) run.set(r.queryId, r.docIds.map((id, i) => ({ id, score: r.scores[i]! })));
  return run;
}

/** A saved run's rankings as a RunMap. */
export function runMapOfRecord(record: Pick<RunRecord, 'rankings'>): RunMap {
  return runMapOfRankings(record.rankings);
}

/** A RunMap as rankings, each query's documents sorted by score descending (stable); checks ids and scores. */
export function rankingsOfRunMap(run: RunMap): QueryRanking[] {
  const rankings: QueryRanking[] = [];
  for (const [queryId, docs] of run) {
    if (queryId === '') throw new Error('A query id of the run is empty');
    const sorted = [...docs].sort(byScoreDescending);
    for (const doc of sorted) {
      if (doc.id === '') throw new Error(`An empty document id in the ranking of query '${queryId}'`);
      if (!Number.isFinite(doc.score)) {
        throw new Error(`Document '${doc.id}' of query '${queryId}' has a non-finite score (${doc.score})`);
      }
    }
    rankings.push({ queryId, docIds: sorted.map((d) => d.id), scores: sorted.map((d) => d.score) });
  }
  return rankings;
}

function byScoreDescending(a: ScoredDoc, b: ScoredDoc): number {
  return b.score - a.score;
}

/** A run without its rankings. */
export function summarizeRun(record: RunRecord): RunSummary {
  const { rankings, ...rest } = record;
  return { ...rest, rankedQueryCount: rankings.length };
}
