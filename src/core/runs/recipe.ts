import type { SamplingSettings } from '../llm/index.ts';
// A shareable experiment: everything needed to make a run, sweep or HDS batch again elsewhere, as a small JSON file.
import { queriesChecksum, qrelsChecksum } from '../corpus/index.ts';
import type { EmbeddingModelInfo, ModelFileHash } from '../embedding/index.ts';
import type { PipelineSpec } from '../retrieval/index.ts';
import type { CorpusRecord, CorpusStore, EmbeddingSetRecord, VectorStore } from '../storage/index.ts';
import type { GridAxis } from '../sweep/index.ts';
import type { AnalyzerOptions } from '../text/index.ts';
import { modelsOfPipeline } from './run-pipeline.ts';
import { readRunEnvironment, type RunEnvironment } from './run-environment.ts';
import type { RunRecord } from './run-record.ts';
import { idRecord } from '../ids/index.ts';

export const RECIPE_FORMAT = 'dsw-recipe';
export const RECIPE_VERSION = 1;

/** The corpus a recipe was made on: its identity and content checksums. */
export interface RecipeCorpus {
  name: string;
  documentCount: number;
  /** `documentsChecksum` of the documents; null when the corpus was loaded before checksums were recorded. */
  checksum: string | null;
  /** The analyzer the BM25 index was built with. */
  analyzer: AnalyzerOptions;
  queryCount: number;
  qrelCount: number;
  queriesChecksum: string;
  qrelsChecksum: string;
}

/** An embedding model a recipe's pipeline uses. */
export interface RecipeModel {
  modelKey: string;
  model: EmbeddingModelInfo;
  /** Texts cut at this many tokens (documents and queries). */
  maxTokens: number;
  /** Token-level vectors were stored (MaxSim). */
  tokens: boolean;
  /** The model's files and their SHA-256, when known. */
  files: ModelFileHash[];
}

/** What a recipe makes again. */
export type RecipeExperiment =
  | { kind: 'run'; pipeline: PipelineSpec; k: number; measures: string[] }
  | {
      kind: 'sweep';
      pipeline: PipelineSpec;
      topK: number;
      measures: string[];
      axes: GridAxis[];
      /** Grid point id → measure → mean, of the original sweep (absent in recipes exported before they were recorded). */
      pointMetrics?: Record<string, Record<string, number>>;
    }
  | { kind: 'hds-batch'; pipeline: PipelineSpec; variants: unknown[]; llm: { provider: string; baseUrl: string; model: string; assistantPrefill?: boolean } & SamplingSettings; questionIds: string[] };

/** A recipe file. */
export interface Recipe {
  format: typeof RECIPE_FORMAT;
  version: typeof RECIPE_VERSION;
  /** The name of what it was made from. */
  name: string;
  /** ISO time it was exported. */
  exportedAt: string;
  experiment: RecipeExperiment;
  corpus: RecipeCorpus;
  models: RecipeModel[];
  /** The software, host and model files of the original (absent for runs saved before it was recorded). */
  environment?: RunEnvironment;
  /** The original's scores (measure → mean), to check a re-run against. */
  metrics?: Record<string, number>;
}

/** The corpus part of a recipe, read from the store. */
export async function recipeCorpus(corpora: CorpusStore, corpus: CorpusRecord): Promise<RecipeCorpus> {
  const queries = await corpora.getQueries(corpus.id);
  const qrels = await corpora.getQrels(corpus.id);
  return {
    name: corpus.name,
    documentCount: corpus.documentCount,
    checksum: corpus.checksum ?? null,
    analyzer: { ...corpus.analyzer },
    queryCount: queries.length,
    qrelCount: qrels.length,
    queriesChecksum: queriesChecksum(queries),
    qrelsChecksum: qrelsChecksum(qrels),
  };
}

/** The models of a pipeline, from the corpus's embedding sets. Throws when a set is gone. */
export async function recipeModels(vectors: Pick<VectorStore, 'getSet'>, corpusId: string, spec: PipelineSpec, environment?: RunEnvironment): Promise<RecipeModel[]> {
  const models: RecipeModel[] = [];
  for (const key of Object.values(modelsOfPipeline(spec))) {
    const set = await vectors.getSet(corpusId, key);
    if (!set) throw new Error(`The embedding set ${key} this pipeline uses is no longer stored, so its model cannot be described.`);
    models.push(recipeModelOfSet(set, environment?.modelFiles?.[key]));
  }
  return models;
}

function recipeModelOfSet(set: EmbeddingSetRecord, files: readonly ModelFileHash[] | undefined): RecipeModel {
  return { modelKey: set.modelKey, model: structuredClone(set.model), maxTokens: set.maxTokens, tokens: set.tokens, files: [...(files ?? set.modelFiles ?? [])] };
}

/** A recipe of a saved run (a query-set run or one sweep point). */
export function recipeOfRun(run: RunRecord, corpus: RecipeCorpus, models: RecipeModel[], now = new Date()): Recipe {
  if (run.pipeline.kind === 'imported') throw new Error('An imported TREC run has no pipeline, so it has no recipe.');
  return {
    format: RECIPE_FORMAT,
    version: RECIPE_VERSION,
    name: run.name,
    exportedAt: now.toISOString(),
    experiment: { kind: 'run', pipeline: structuredClone(run.pipeline as PipelineSpec), k: run.k, measures: [...run.measures] },
    corpus,
    models,
    ...(run.environment ? { environment: structuredClone(run.environment) } : {}),
    ...(run.metrics ? { metrics: { ...run.metrics.aggregate } } : {}),
  };
}

/** A recipe of any experiment (sweeps and HDS batches build theirs with this). */
export function makeRecipe(name: string, experiment: RecipeExperiment, corpus: RecipeCorpus, models: RecipeModel[], environment?: RunEnvironment, now = new Date()): Recipe {
  return {
    format: RECIPE_FORMAT,
    version: RECIPE_VERSION,
    name,
    exportedAt: now.toISOString(),
    experiment: structuredClone(experiment),
    corpus,
    models,
    ...(environment ? { environment: structuredClone(environment) } : {}),
  };
}

/** A recipe as a JSON file. */
export function formatRecipe(recipe: Recipe): string {
  return `${JSON.stringify(recipe, null, 2)}\n`;
}

/** A recipe file that cannot be read; the message says what is wrong and where. */
export class RecipeError extends Error {
  override name = 'RecipeError';
}

/** Reads a recipe file; throws RecipeError naming the field for a damaged, foreign or newer file. */
export function parseRecipe(text: string): Recipe {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RecipeError(`This is not a JSON file: ${(error as Error).message}`);
  }
  const root = obj(json, 'the file');
  if (root.format !== RECIPE_FORMAT) {
    const what = typeof root.format === 'string' ? `a "${root.format}" file` : 'not a recipe';
    throw new RecipeError(`This JSON file is ${what}, not a workbench recipe (expected "format": "${RECIPE_FORMAT}").`);
  }
  if (root.version !== RECIPE_VERSION) {
    throw new RecipeError(`This recipe is format version ${JSON.stringify(root.version)}; this workbench reads version ${RECIPE_VERSION}.`);
  }
  const experiment = obj(root.experiment, 'experiment');
  const kind = experiment.kind;
  if (kind !== 'run' && kind !== 'sweep' && kind !== 'hds-batch') throw new RecipeError(`Field "experiment.kind" must be "run", "sweep" or "hds-batch" (got ${JSON.stringify(kind)})`);
  const pipeline = obj(experiment.pipeline, 'experiment.pipeline');
  if (typeof pipeline.kind !== 'string' || !pipeline.kind) throw new RecipeError('Field "experiment.pipeline.kind" must name a pipeline');
  if (kind === 'run') {
    positiveInt(experiment.k, 'experiment.k');
    stringList(experiment.measures, 'experiment.measures');
  }
  const c = obj(root.corpus, 'corpus');
  const analyzer = obj(c.analyzer, 'corpus.analyzer');
  if (typeof analyzer.lowercase !== 'boolean') throw new RecipeError('Field "corpus.analyzer.lowercase" must be true or false');
  if (analyzer.stopWords !== 'english' && analyzer.stopWords !== 'none') throw new RecipeError('Field "corpus.analyzer.stopWords" must be "english" or "none"');
  if (analyzer.stemming !== 'porter' && analyzer.stemming !== 'none') throw new RecipeError('Field "corpus.analyzer.stemming" must be "porter" or "none"');
  const corpus: RecipeCorpus = {
    name: str(c.name, 'corpus.name'),
    documentCount: count(c.documentCount, 'corpus.documentCount'),
    checksum: c.checksum === null ? null : checksum(c.checksum, 'corpus.checksum'),
    analyzer: { lowercase: analyzer.lowercase, stopWords: analyzer.stopWords, stemming: analyzer.stemming },
    queryCount: count(c.queryCount, 'corpus.queryCount'),
    qrelCount: count(c.qrelCount, 'corpus.qrelCount'),
    queriesChecksum: checksum(c.queriesChecksum, 'corpus.queriesChecksum'),
    qrelsChecksum: checksum(c.qrelsChecksum, 'corpus.qrelsChecksum'),
  };
  if (!Array.isArray(root.models)) throw new RecipeError('Field "models" must be a list');
  const models = root.models.map((m, i) => readModel(m, `models[${i}]`));
  let environment: RunEnvironment | undefined;
  if (root.environment !== undefined) {
    try {
      environment = readRunEnvironment(root.environment, 'environment');
    } catch (error) {
      throw new RecipeError(`Field ${(error as Error).message}`);
    }
  }
  let metrics: Record<string, number> | undefined;
  if (root.metrics !== undefined) {
    metrics = idRecord<number>();
    for (const [m, v] of Object.entries(obj(root.metrics, 'metrics'))) {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecipeError(`Field "metrics.${m}" must be a number`);
      metrics[m] = v;
    }
  }
  return {
    format: RECIPE_FORMAT,
    version: RECIPE_VERSION,
    name: str(root.name, 'name'),
    exportedAt: typeof root.exportedAt === 'string' ? root.exportedAt : '',
    experiment: experiment as unknown as RecipeExperiment,
    corpus,
    models,
    ...(environment ? { environment } : {}),
    ...(metrics ? { metrics } : {}),
  };
}

function readModel(value: unknown, at: string): RecipeModel {
  const m = obj(value, at);
  const info = obj(m.model, `${at}.model`);
  const prefixes = obj(info.prefixes, `${at}.model.prefixes`);
  if (!Array.isArray(m.files)) throw new RecipeError(`Field "${at}.files" must be a list`);
  return {
    modelKey: str(m.modelKey, `${at}.modelKey`),
    model: {
      modelId: str(info.modelId, `${at}.model.modelId`),
      dtype: str(info.dtype, `${at}.model.dtype`),
      pooling: str(info.pooling, `${at}.model.pooling`) as EmbeddingModelInfo['pooling'],
      dimensions: positiveInt(info.dimensions, `${at}.model.dimensions`),
      prefixes: { query: typeof prefixes.query === 'string' ? prefixes.query : '', passage: typeof prefixes.passage === 'string' ? prefixes.passage : '' },
    },
    maxTokens: positiveInt(m.maxTokens, `${at}.maxTokens`),
    tokens: m.tokens === true,
    files: m.files.map((f, i) => {
      const file = obj(f, `${at}.files[${i}]`);
      const sha256 = str(file.sha256, `${at}.files[${i}].sha256`);
      if (!/^[0-9a-f]{64}$/.test(sha256)) throw new RecipeError(`Field "${at}.files[${i}].sha256" must be 64 lower-case hex digits`);
      return { path: str(file.path, `${at}.files[${i}].path`), sha256, bytes: count(file.bytes, `${at}.files[${i}].bytes`) };
    }),
  };
}

/** What a corpus here lacks to reproduce a recipe: one sentence per difference, empty when it matches. */
export function corpusDifferences(recipe: RecipeCorpus, here: RecipeCorpus): string[] {
  const out: string[] = [];
  if (recipe.documentCount !== here.documentCount) out.push(`The recipe's corpus has ${recipe.documentCount} documents; this one has ${here.documentCount}.`);
  if (recipe.checksum && here.checksum && recipe.checksum !== here.checksum) out.push(`The documents differ: content checksum ${short(recipe.checksum)} in the recipe, ${short(here.checksum)} here.`);
  if (recipe.checksum && !here.checksum) out.push('This corpus was loaded before content checksums were recorded, so its documents cannot be checked: load it again.');
  if (recipe.queryCount !== here.queryCount) out.push(`The recipe's query set has ${recipe.queryCount} queries; this one has ${here.queryCount}.`);
  else if (recipe.queriesChecksum !== here.queriesChecksum) out.push(`The queries differ (checksum ${short(recipe.queriesChecksum)} in the recipe, ${short(here.queriesChecksum)} here).`);
  if (recipe.qrelCount !== here.qrelCount) out.push(`The recipe's corpus has ${recipe.qrelCount} relevance judgements; this one has ${here.qrelCount}.`);
  else if (recipe.qrelsChecksum !== here.qrelsChecksum) out.push(`The relevance judgements differ (checksum ${short(recipe.qrelsChecksum)} in the recipe, ${short(here.qrelsChecksum)} here).`);
  const a = recipe.analyzer;
  const b = here.analyzer;
  if (a.lowercase !== b.lowercase || a.stopWords !== b.stopWords || a.stemming !== b.stemming) {
    out.push(`The BM25 index was built with another analyzer: lowercase ${a.lowercase}, stop words ${a.stopWords}, stemming ${a.stemming} in the recipe; ${b.lowercase}, ${b.stopWords}, ${b.stemming} here.`);
  }
  return out;
}

/** What differs between the recipe's model and the one here (`here` undefined: not embedded here). */
export function modelDifferences(recipe: RecipeModel, here: { modelKey: string; maxTokens: number; files: readonly ModelFileHash[] } | undefined): string[] {
  if (!here) return [`This corpus has no embedding set of ${recipe.model.modelId} (${recipe.model.dtype}, ${recipe.model.pooling} pooling, ${recipe.model.dimensions} dims): embed it with that model first.`];
  const out: string[] = [];
  if (here.modelKey !== recipe.modelKey) out.push(`The model ${recipe.model.modelId} here is ${here.modelKey}; the recipe's is ${recipe.modelKey}.`);
  if (here.maxTokens !== recipe.maxTokens) out.push(`${recipe.model.modelId} cuts texts at ${here.maxTokens} tokens here; the recipe's at ${recipe.maxTokens}.`);
  const mine = new Map(here.files.map((f) => [f.path, f.sha256]));
  for (const f of recipe.files) {
    const sha = mine.get(f.path);
    if (sha !== undefined && sha !== f.sha256) out.push(`${recipe.model.modelId}: ${f.path} differs (sha256 ${f.sha256.slice(0, 12)}… in the recipe, ${sha.slice(0, 12)}… here).`);
  }
  if (recipe.files.length > 0 && here.files.length > 0 && !recipe.files.some((f) => mine.has(f.path))) {
    out.push(`${recipe.model.modelId}: none of the recipe's model files were hashed here, so the weights cannot be compared.`);
  }
  return out;
}

function short(checksum: string): string {
  return `${checksum.slice(0, 19)}…`;
}

function obj(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RecipeError(`Field "${at}" must be an object`);
  return value as Record<string, unknown>;
}

function str(value: unknown, at: string): string {
  if (typeof value !== 'string' || value === '') throw new RecipeError(`Field "${at}" must be a non-empty string`);
  return value;
}

function count(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new RecipeError(`Field "${at}" must be a whole number`);
  return value;
}

function positiveInt(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new RecipeError(`Field "${at}" must be a positive whole number`);
  return value;
}

function checksum(value: unknown, at: string): string {
  if (typeof value !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(value)) throw new RecipeError(`Field "${at}" must be a checksum "sha256:<64 hex digits>"`);
  return value;
}

function stringList(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new RecipeError(`Field "${at}" must be a list of names`);
  return value as string[];
}
