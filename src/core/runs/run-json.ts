import { readRunEnvironment, type RunEnvironment } from './run-environment.ts';
import { parseMeasure } from '../eval/index.ts';
import { withoutSecrets } from './redact-secrets.ts';
import type { QueryRanking, RunImportMark, RunMetrics, RunRecord, RunVersions } from './run-record.ts';
import type { RunPipeline } from './run-pipeline.ts';
import { whitespaceInId } from '../corpus/index.ts';

/** The `format` field of a run file. */
export const RUN_JSON_FORMAT = 'deep-search-workbench/run';
/** The version of the run file layout this code writes; it reads this version and older ones. */
export const RUN_JSON_VERSION = 1;

/** A run file that cannot be read; the message names the field at fault. */
export class RunJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunJsonError';
  }
}

/**
 * A run as a JSON file: `{format, formatVersion, exportedAt, run}` with the run's configuration, versions,
 * metrics and rankings (one line per query). Only RunRecord fields are written, credential keys dropped.
 */
export function exportRunJson(record: RunRecord, exportedAt: Date = new Date()): string {
  return `${fileHead(exportedAt)},\n  "run": ${runBody(record)}\n}\n`;
}

/**
 * Several runs (e.g. a sweep's grid points and baselines) as one JSON file: `{format, formatVersion, exportedAt,
 * runs: [...]}`, each run as `exportRunJson` writes it. Read with `parseRunsJson`.
 */
export function exportRunsJson(records: readonly RunRecord[], exportedAt: Date = new Date()): string {
  return `${fileHead(exportedAt)},\n  "runs": [\n  ${records.map(runBody).join(',\n  ')}\n  ]\n}\n`;
}

function fileHead(exportedAt: Date): string {
  return JSON.stringify({ format: RUN_JSON_FORMAT, formatVersion: RUN_JSON_VERSION, exportedAt: exportedAt.toISOString() }, null, 2).slice(0, -2);
}

// One run object, rankings one line per query.
function runBody(record: RunRecord): string {
  const { rankings, ...rest } = cleanRecord(record);
  const body = JSON.stringify(rest, null, 2).slice(0, -2).replace(/\n/g, '\n  ');
  const lines = rankings.map((r) => `      ${JSON.stringify({ queryId: r.queryId, docIds: r.docIds, scores: r.scores })}`);
  const rankingsText = lines.length === 0 ? '[]' : `[\n${lines.join(',\n')}\n    ]`;
  return `${body},\n    "rankings": ${rankingsText}\n  }`;
}

/** Exactly the fields of a RunRecord, in a fixed order, without credentials. */
function cleanRecord(r: RunRecord): RunRecord {
  return {
    id: r.id,
    name: r.name,
    corpusId: r.corpusId,
    corpusName: r.corpusName,
    pipeline: withoutSecrets(r.pipeline),
    config: withoutSecrets(r.config),
    createdAt: r.createdAt,
    versions: {
      workbench: r.versions.workbench,
      ...(r.versions.models ? { models: { ...r.versions.models } } : {}),
      ...(r.versions.runtime ? { runtime: { ...r.versions.runtime } } : {}),
    },
    ...(r.environment ? { environment: structuredClone(r.environment) } : {}),
    k: r.k,
    measures: [...r.measures],
    metrics: r.metrics,
    elapsedMs: r.elapsedMs,
    notes: r.notes,
    ...(r.imported ? { imported: { ...r.imported } } : {}),
    rankings: r.rankings,
  };
}

/** Reads a run file written by `exportRunJson`; throws RunJsonError naming the first field that is wrong. */
export function parseRunJson(text: string): RunRecord {
  const root = readRunFile(text);
  return readRun(root.run);
}

/**
 * Reads a file of one run (`exportRunJson`) or several (`exportRunsJson`); throws RunJsonError naming the run
 * and the first field that is wrong.
 */
export function parseRunsJson(text: string): RunRecord[] {
  const root = readRunFile(text);
  if (root.runs === undefined) return [readRun(root.run)];
  if (!Array.isArray(root.runs) || root.runs.length === 0) throw new RunJsonError('Field "runs" must be a non-empty list of runs');
  const runs = root.runs;
  return runs.map((run, i) => {
    try {
      return readRun(run);
    } catch (error) {
      if (error instanceof RunJsonError) throw new RunJsonError(`Run ${i + 1} of ${runs.length}: ${error.message}`);
      throw error;
    }
  });
}

// The file's envelope: format and version checked.
function readRunFile(text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new RunJsonError(`This is not a JSON file: ${(error as Error).message}`);
  }
  const root = object(data, 'the file');
  if (root.format !== RUN_JSON_FORMAT) {
    throw new RunJsonError(`This is not a Deep Search Workbench run file: field "format" must be "${RUN_JSON_FORMAT}"`);
  }
  const version = root.formatVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new RunJsonError('Field "formatVersion" must be a positive whole number');
  }
  if (version > RUN_JSON_VERSION) {
    throw new RunJsonError(`This run file has format version ${version}; this workbench reads up to version ${RUN_JSON_VERSION}. Update the workbench.`);
  }
  return root;
}

function readRun(value: unknown): RunRecord {
  const run = object(value, 'run');
  const measures = stringArray(run.measures, 'run.measures');
  measures.forEach((m, i) => {
    let name: string;
    try {
      name = parseMeasure(m).name;
    } catch (error) {
      throw new RunJsonError(`Field "run.measures[${i}]": ${(error as Error).message}`);
    }
    // The metrics are keyed by these names: a saved run holds the canonical ones.
    if (name !== m) throw new RunJsonError(`Field "run.measures[${i}]": '${m}' is saved as '${name}' (the name its metrics are keyed by)`);
  });
  const k = run.k;
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 1) throw new RunJsonError('Field "run.k" must be a positive whole number');
  const elapsedMs = run.elapsedMs ?? null;
  if (elapsedMs !== null && !(typeof elapsedMs === 'number' && Number.isFinite(elapsedMs) && elapsedMs >= 0)) {
    throw new RunJsonError('Field "run.elapsedMs" must be null or a number of milliseconds');
  }
  const notes = run.notes ?? '';
  if (typeof notes !== 'string') throw new RunJsonError('Field "run.notes" must be text');
  return {
    id: nonEmptyString(run.id, 'run.id'),
    name: nonEmptyString(run.name, 'run.name').trim(),
    corpusId: string(run.corpusId, 'run.corpusId'),
    corpusName: string(run.corpusName, 'run.corpusName'),
    pipeline: withoutSecrets(readPipeline(run.pipeline)),
    config: withoutSecrets(object(run.config, 'run.config')),
    createdAt: finite(run.createdAt, 'run.createdAt'),
    versions: readVersions(run.versions),
    ...(run.environment !== undefined ? { environment: readEnvironment(run.environment) } : {}),
    k,
    rankings: readRankings(run.rankings),
    measures,
    metrics: readMetrics(run.metrics, measures),
    elapsedMs,
    notes,
    ...(run.imported !== undefined ? { imported: readImportMark(run.imported) } : {}),
  };
}

function readImportMark(value: unknown): RunImportMark {
  const m = object(value, 'run.imported');
  const mark: RunImportMark = { fileName: string(m.fileName, 'run.imported.fileName'), at: finite(m.at, 'run.imported.at') };
  if (m.originalId !== undefined) mark.originalId = string(m.originalId, 'run.imported.originalId');
  return mark;
}

function readPipeline(value: unknown): RunPipeline {
  const p = object(value, 'run.pipeline');
  const kind = nonEmptyString(p.kind, 'run.pipeline.kind');
  if (kind === 'imported') return { kind, fileName: string(p.fileName, 'run.pipeline.fileName') };
  if (kind === 'bm25') {
    const params = object(p.params, 'run.pipeline.params');
    for (const key of ['k1', 'b', 'd']) finite(params[key], `run.pipeline.params.${key}`);
    if (typeof params.termCountBoost !== 'boolean') throw new RunJsonError('Field "run.pipeline.params.termCountBoost" must be true or false');
  }
  // Other pipeline kinds are kept as written: their specs belong to their features.
  return p as unknown as RunPipeline;
}

function readEnvironment(value: unknown): RunEnvironment {
  try {
    return readRunEnvironment(value, 'run.environment');
  } catch (error) {
    throw new RunJsonError(`Field ${(error as Error).message}`);
  }
}

function readVersions(value: unknown): RunVersions {
  const v = object(value, 'run.versions');
  const versions: RunVersions = { workbench: nonEmptyString(v.workbench, 'run.versions.workbench') };
  if (v.models !== undefined) {
    const models = object(v.models, 'run.versions.models');
    for (const [name, version] of Object.entries(models)) string(version, `run.versions.models.${name}`);
    versions.models = models as Record<string, string>;
  }
  if (v.runtime !== undefined) {
    const runtime = object(v.runtime, 'run.versions.runtime');
    for (const [name, version] of Object.entries(runtime)) string(version, `run.versions.runtime.${name}`);
    versions.runtime = runtime as Record<string, string>;
  }
  return versions;
}

function readRankings(value: unknown): QueryRanking[] {
  if (!Array.isArray(value)) throw new RunJsonError('Field "run.rankings" must be a list');
  const seen = new Set<string>();
  return value.map((item, i) => {
    const where = `run.rankings[${i}]`;
    const r = object(item, where);
    const queryId = nonEmptyString(r.queryId, `${where}.queryId`);
    const badQuery = whitespaceInId(queryId, 'query id');
    if (badQuery !== null) throw new RunJsonError(`Field "${where}.queryId": ${badQuery}`);
    if (seen.has(queryId)) throw new RunJsonError(`Field "${where}.queryId": query '${queryId}' has two rankings`);
    seen.add(queryId);
    const docIds = stringArray(r.docIds, `${where}.docIds`);
    docIds.forEach((id, j) => {
      if (id === '') throw new RunJsonError(`Field "${where}.docIds[${j}]" is empty`);
      const badDoc = whitespaceInId(id, 'document id');
      if (badDoc !== null) throw new RunJsonError(`Field "${where}.docIds[${j}]": ${badDoc}`);
    });
    if (!Array.isArray(r.scores)) throw new RunJsonError(`Field "${where}.scores" must be a list of numbers`);
    const scores = r.scores.map((s, j) => finite(s, `${where}.scores[${j}]`));
    if (scores.length !== docIds.length) {
      throw new RunJsonError(`Field "${where}.scores" has ${scores.length} scores for ${docIds.length} documents`);
    }
    return { queryId, docIds, scores };
  });
}

function readMetrics(value: unknown, measures: readonly string[]): RunMetrics | null {
  if (value === null || value === undefined) return null;
  const m = object(value, 'run.metrics');
  const aggregate = numberRecord(m.aggregate, 'run.metrics.aggregate');
  for (const measure of measures) {
    if (!(measure in aggregate)) throw new RunJsonError(`Field "run.metrics.aggregate" has no value for measure '${measure}'`);
  }
  const perQueryRaw = object(m.perQuery, 'run.metrics.perQuery');
  const perQuery = Object.fromEntries(
    Object.entries(perQueryRaw).map(([queryId, values]) => [queryId, numberRecord(values, `run.metrics.perQuery.${queryId}`)]),
  );
  const queryCount = m.queryCount;
  if (typeof queryCount !== 'number' || !Number.isSafeInteger(queryCount) || queryCount < 0) {
    throw new RunJsonError('Field "run.metrics.queryCount" must be a whole number');
  }
  return { aggregate, perQuery, queryCount };
}

function object(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RunJsonError(field === 'the file' ? 'The file does not hold a JSON object' : `Field "${field}" must be an object`);
  }
  return value as Record<string, unknown>;
}

function string(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new RunJsonError(`Field "${field}" must be text`);
  return value;
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new RunJsonError(`Field "${field}" must be non-empty text`);
  return value;
}

function stringArray(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new RunJsonError(`Field "${field}" must be a list of text`);
  value.forEach((v, i) => string(v, `${field}[${i}]`));
  return value as string[];
}

function finite(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RunJsonError(`Field "${field}" must be a finite number`);
  return value;
}

function numberRecord(value: unknown, field: string): Record<string, number> {
  const record = object(value, field);
  for (const [key, v] of Object.entries(record)) finite(v, `${field}.${key}`);
  return record as Record<string, number>;
}
