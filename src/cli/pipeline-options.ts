import fs from 'node:fs';
import path from 'node:path';
import {
  Bm25Retriever,
  buildRetriever,
  DEFAULT_ANALYZER_OPTIONS,
  DEFAULT_CC_WEIGHT,
  DEFAULT_FETCH_K_MULTIPLIER,
  DEFAULT_RRF_K,
  embedCorpusInMemory,
  embeddingModelKey,
  HUGGING_FACE_HOST,
  PIPELINE_KINDS,
  loadEmbedder,
  NORMALIZE_METHODS,
  OKAPI_BM25,
  presetForModel,
  resolveGqrConfig,
  theoreticalMinScore,
  type AnalyzerOptions,
  type Bm25Params,
  type DenseIndex,
  type DocumentVectorCache,
  type EmbeddingDtype,
  type Embedder,
  type EmbeddingModelSource,
  type EmbeddingSetRecord,
  type ModelFileHash,
  type RunEnvironmentSource,
  type GqrConfig,
  type NormalizeMethod,
  type PipelineSpec,
  type RetrievalResources,
  type Retriever,
  NUMERIC_RULES,
  describeRule,
  numberProblem,
  type NumericRule,
} from '../core/index.ts';
import { CliError, type CliIo } from './io.ts';
import type { LoadedDataset } from './load-dataset.ts';
import { corpusTextHash, modelFilesDigest, restoreVectors, saveVectors, vectorCacheKey } from './vector-cache.ts';
import { hashModelFolder, nodeHostEnvironment } from './node-environment.ts';

type ParamValue = string | number | boolean;

/** Analyzer settings among `--param`s (they decide how the index is built). */
export function analyzerFromParams(params: Record<string, ParamValue>): AnalyzerOptions {
  const analyzer: AnalyzerOptions = { ...DEFAULT_ANALYZER_OPTIONS };
  if ('lowercase' in params) analyzer.lowercase = expectBoolean('lowercase', params.lowercase);
  if ('stopWords' in params) analyzer.stopWords = expectOneOf('stopWords', params.stopWords, ['english', 'none']);
  if ('stemming' in params) analyzer.stemming = expectOneOf('stemming', params.stemming, ['porter', 'none']);
  return analyzer;
}

const ANALYZER_KEYS = ['lowercase', 'stopWords', 'stemming'];
const BM25_KEYS = ['k1', 'b', 'd', 'termCountBoost'];
const DENSE_KEYS = ['dtype', 'pooling', 'queryPrefix', 'passagePrefix', 'maxTokens', 'batchSize', 'tokens', 'searchMode', 'vectorForm'];
const RRF_KEYS = ['k', 'fetchKMultiplier'];
const CC_KEYS = ['weight', 'normalizeMethod', 'pipeline1Min', 'pipeline2Min', 'fetchKMultiplier'];
/** GQR settings (`--param`) of `--pipeline gqr`; the sweep takes them as its fixed settings. */
export const GQR_KEYS = ['fetchKMultiplier', 'poolSize', 'nSteps', 'learningRate', 'temperature', 'mixtureAlpha', 'candidatePoolMode', 'scorerMode', 'target', 'optimizer'];

/** The pipelines `dsw run` and `dsw search` offer. */

/** Help text for the pipeline options, shared by the commands that take them. */
export const PIPELINE_HELP = `  --pipeline  bm25 (default), dense, rrf or cc; rrf and cc fuse dense (pipeline 1) with bm25 (pipeline 2)
  --model     embedding model for dense, rrf and cc: a model folder (config.json, tokenizer.json,
              onnx/model.onnx), e.g. public/models/tiny-bert, or a model id looked up in --models-dir
  --models-dir  folder of model folders for --model ids (default public/models)
  --model-host  download --model ids from this host (e.g. ${HUGGING_FACE_HOST}); off by default
  --vector-cache  folder where document vectors are kept between runs, keyed by the model's files, the dense
              settings and the corpus texts (a later run with the same three does not embed again)
  --param     pipeline setting, repeatable:
              bm25: k1, b, d, termCountBoost, lowercase, stopWords, stemming
              dense: dtype (fp32), pooling (mean|cls), queryPrefix, passagePrefix, maxTokens, batchSize,
                     tokens (true: also token vectors), searchMode (single|multi = MaxSim),
                     vectorForm (auto|float32|int8|int8-exact|binary; auto = float32 below 200,000
                     documents, int8 from there; int8-exact = float32's exact hits from the int8 form)
              rrf: k (60), fetchKMultiplier (2), and the bm25 and dense settings
              cc: weight (0.5, of dense), normalizeMethod (mm|tmm|z|dbsf), pipeline1Min, pipeline2Min
                  (tmm; default −1 for dense and 0 for bm25), fetchKMultiplier (2), and the bm25 and dense settings
              gqr (dense primary refined toward bm25): fetchKMultiplier (2), poolSize (documents each child
                  fetches; default top-k × fetchKMultiplier, so the pool follows --top-k), nSteps (25), learningRate (0.1),
                  temperature (1), mixtureAlpha (0.5), candidatePoolMode (union|primary), scorerMode
                  (auto|single|multi), target (per-step|fixed), optimizer (gd|adam), and the bm25 and dense settings
`;

/** Where `--model` points, for the commands that embed. */
export interface ModelOptions {
  /** `--model`: a model folder or a model id. */
  model?: string;
  /** `--models-dir`: where model ids are looked up; default `public/models`. */
  modelsDir?: string;
  /** `--model-host`: download model ids from this host. */
  modelHost?: string;
  /** `--vector-cache`: folder of cached document vectors (see vector-cache.ts). */
  vectorCache?: string;
}

/** A pipeline built from command-line options: the retriever and the spec a saved run records. */
export interface BuiltPipeline {
  retriever: Retriever;
  spec: PipelineSpec;
  /** What the retriever was built on (for the core's use cases, which build their own from `spec`). */
  resources: RetrievalResources;
  /** Node's version and, for dense pipelines, the transformers.js / ONNX Runtime versions (saved runs). */
  runtime: Record<string, string>;
  /** Node, the inference packages and the model folder's file hashes, recorded on every saved run. */
  environment: RunEnvironmentSource;
}

/**
 * Builds the pipeline a `--pipeline` names through the core's `buildRetriever`, as the browser does. Dense
 * pipelines load the `--model` with transformers.js (onnxruntime-node) and embed the dataset first, through the
 * same `embedCorpus` path the browser's worker uses (into memory, `embedCorpusInMemory`).
 */
export async function buildPipelineFromOptions(
  pipeline: string,
  params: Record<string, ParamValue>,
  dataset: LoadedDataset,
  io: CliIo,
  models: ModelOptions = {},
): Promise<BuiltPipeline> {
  if (!(PIPELINE_KINDS as readonly string[]).includes(pipeline)) throw new CliError(`Unknown pipeline "${pipeline}"; available: ${PIPELINE_KINDS.join(', ')}`);
  checkPipelineParams(pipeline, params);
  const bm25: PipelineSpec = { kind: 'bm25', params: bm25Params(params) };
  const node = { node: process.version };
  if (pipeline === 'bm25') {
    const resources = { bm25Index: async () => dataset.index };
    return { retriever: await build(bm25, resources), spec: bm25, resources, runtime: node, environment: { host: nodeHostEnvironment() } };
  }

  const { modelKey, index, runtime, modelFiles } = await embedDataset(dataset, params, io, models);
  const spec = pipelineSpecFromParams(pipeline, params, modelKey, bm25);
  const resources = { bm25Index: async () => dataset.index, denseIndex: async () => index };
  const environment = { host: nodeHostEnvironment(), modelFiles: modelFiles ? { [modelKey]: modelFiles } : {} };
  return { retriever: await build(spec, resources), spec, resources, runtime: { ...runtime, ...node }, environment };
}

/**
 * The spec a `--pipeline` and its `--param`s name, given the embedding set's model key for its dense part (the
 * local dataset's or an OpenSearch corpus's) and the BM25 part.
 */
export function pipelineSpecFromParams(pipeline: string, params: Record<string, ParamValue>, modelKey: string, bm25: PipelineSpec): PipelineSpec {
  const searchMode = 'searchMode' in params ? expectOneOf('searchMode', params.searchMode, ['single', 'multi'] as const) : undefined;
  const vectorForm = 'vectorForm' in params ? expectOneOf('vectorForm', params.vectorForm, ['auto', 'float32', 'int8', 'int8-exact', 'binary'] as const) : undefined;
  const dense: PipelineSpec = { kind: 'dense', modelKey, ...(searchMode ? { searchMode } : {}), ...(vectorForm ? { vectorForm } : {}) };
  const fetchKMultiplier = 'fetchKMultiplier' in params ? expectNumber('fetchKMultiplier', params.fetchKMultiplier, NUMERIC_RULES.fetchKMultiplier) : DEFAULT_FETCH_K_MULTIPLIER;
  let spec: PipelineSpec;
  if (pipeline === 'dense') spec = dense;
  else if (pipeline === 'gqr') spec = { kind: 'gqr', primary: dense, complementary: bm25, config: gqrConfigFromParams(params) };
  else if (pipeline === 'rrf') spec = { kind: 'rrf', pipelines: [dense, bm25], k: 'k' in params ? expectNumber('k', params.k, NUMERIC_RULES.rrfK) : DEFAULT_RRF_K, fetchKMultiplier };
  else {
    const normalizeMethod = 'normalizeMethod' in params ? expectOneOf('normalizeMethod', params.normalizeMethod, NORMALIZE_METHODS) : ('mm' as NormalizeMethod);
    const min = (key: 'pipeline1Min' | 'pipeline2Min', child: PipelineSpec) =>
      key in params ? expectNumber(key, params[key]) : normalizeMethod === 'tmm' ? theoreticalMinScore(child) : null;
    spec = {
      kind: 'cc',
      pipelines: [dense, bm25],
      weight: 'weight' in params ? expectNumber('weight', params.weight) : DEFAULT_CC_WEIGHT,
      normalizeMethod,
      pipeline1Min: min('pipeline1Min', dense),
      pipeline2Min: min('pipeline2Min', bm25),
      fetchKMultiplier,
    };
  }
  return spec;
}

async function build(spec: PipelineSpec, resources: RetrievalResources): Promise<Retriever> {
  try {
    return await buildRetriever(spec, resources);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

export function bm25Params(params: Record<string, ParamValue>): Bm25Params {
  const bm25: Partial<Bm25Params> = {};
  for (const key of ['k1', 'b', 'd'] as const) if (key in params) bm25[key] = expectNumber(key, params[key]);
  if ('termCountBoost' in params) bm25.termCountBoost = expectBoolean('termCountBoost', params.termCountBoost);
  return { ...OKAPI_BM25, ...bm25 };
}

/** Where `--model` is read from: a folder on disk, or a model id under the models folder or on a host. */
export function resolveModelSource(models: ModelOptions, cwd: string): { source: EmbeddingModelSource; localModelPath?: string } {
  const model = models.model?.trim();
  if (!model) throw new CliError('Dense pipelines need --model <model folder or model id>, e.g. --model public/models/tiny-bert');
  const folder = path.resolve(cwd, model);
  if (fs.existsSync(folder) && fs.statSync(folder).isDirectory()) {
    const parent = path.dirname(folder);
    return { source: { location: 'path', modelId: path.basename(folder), parentPath: parent }, localModelPath: `${parent}${path.sep}` };
  }
  if (models.modelHost) return { source: { location: 'remote', modelId: model, host: models.modelHost } };
  const dir = path.resolve(cwd, models.modelsDir ?? 'public/models');
  return { source: { location: 'path', modelId: model, parentPath: dir }, localModelPath: `${dir}${path.sep}` };
}

/** Loads `--model` with its `--param` settings (dtype, pooling, prefixes, maxTokens, batchSize) and hashes its files. */
export async function loadCliEmbedder(params: Record<string, ParamValue>, io: CliIo, models: ModelOptions): Promise<{ embedder: Embedder; source: EmbeddingModelSource }> {
  const { source, localModelPath } = resolveModelSource(models, io.cwd);
  const preset = presetForModel(source.modelId);
  const text = (key: string) => (key in params ? String(params[key]) : undefined);
  const pooling = 'pooling' in params ? expectOneOf('pooling', params.pooling, ['mean', 'cls'] as const) : preset?.pooling;
  let embedder;
  try {
    embedder = await loadEmbedder({
      modelId: source.modelId,
      localModelPath,
      remoteHost: source.location === 'remote' ? source.host : undefined,
      allowRemoteModels: source.location === 'remote',
      dtype: (text('dtype') ?? 'fp32') as EmbeddingDtype,
      pooling,
      prefixes: { query: text('queryPrefix') ?? preset?.prefixes.query, passage: text('passagePrefix') ?? preset?.prefixes.passage },
      maxTokens: 'maxTokens' in params ? expectNumber('maxTokens', params.maxTokens, NUMERIC_RULES.maxTokens) : preset?.maxTokens,
      batchSize: 'batchSize' in params ? expectNumber('batchSize', params.batchSize, NUMERIC_RULES.embeddingBatchSize) : undefined,
    });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  if (source.location === 'path' && source.parentPath) embedder.modelFiles = await hashModelFolder(path.join(source.parentPath, source.modelId), text('dtype') ?? 'fp32');
  return { embedder, source };
}

/** Embeds every document of the dataset with `--model` (into memory): the dense index and its embedding set. */
export async function embedDataset(
  dataset: LoadedDataset,
  params: Record<string, ParamValue>,
  io: CliIo,
  models: ModelOptions,
): Promise<{ modelKey: string; index: DenseIndex; set: EmbeddingSetRecord; embedder: Embedder; runtime: Readonly<Record<string, string>>; modelFiles?: ModelFileHash[] }> {
  const { embedder, source } = await loadCliEmbedder(params, io, models);
  const tokens = 'tokens' in params ? expectBoolean('tokens', params.tokens) : params.searchMode === 'multi';
  const started = performance.now();
  let lastReport = started;
  const cacheDir = models.vectorCache && !tokens && source.location === 'path' && source.parentPath ? path.resolve(io.cwd, models.vectorCache) : null;
  const cacheKey = cacheDir
    ? vectorCacheKey({
        modelHash: modelFilesDigest(embedder.modelFiles ?? []),
        modelKey: embeddingModelKey(embedder.info),
        maxTokens: embedder.maxTokens,
        corpusHash: await corpusTextHash(dataset),
      })
    : null;
  const cache: DocumentVectorCache | undefined =
    cacheDir && cacheKey
      ? {
          restore: (vectors) => restoreVectors(cacheDir, cacheKey, dataset.corpus.id, vectors),
          save: (set, vectors) => saveVectors(cacheDir, cacheKey, set, vectors),
        }
      : undefined;
  const { set, index, fromCache } = await embedCorpusInMemory(embedder, dataset.store, {
    corpusId: dataset.corpus.id,
    source,
    device: 'cpu',
    tokens,
    cache,
    onProgress: (p) => {
      const now = performance.now();
      if (now - lastReport < 2000 || p.done === p.total) return;
      lastReport = now;
      io.err(`  embedded ${p.done} of ${p.total} documents (${p.docsPerSecond.toFixed(0)} docs/s)\n`);
    },
  });
  if (fromCache) {
    io.err(`Read ${set.rowsDone} document vectors of ${embedder.info.modelId} from the vector cache (${path.join(cacheDir!, cacheKey!)}.f32)\n`);
    return { modelKey: set.modelKey, index, set, embedder, runtime: embedder.runtime, modelFiles: embedder.modelFiles };
  }
  io.err(
    `Embedded ${set.rowsDone} documents with ${embedder.info.modelId} (${embedder.info.dimensions} dims, onnxruntime-node) in ` +
      `${((performance.now() - started) / 1000).toFixed(2)} s\n`,
  );
  return { modelKey: set.modelKey, set, index, embedder, runtime: embedder.runtime, modelFiles: set.modelFiles };
}

/** Builds the retriever a `--pipeline` names, from the loaded dataset and the `--param`s. */
export function retrieverFromOptions(pipeline: string, params: Record<string, ParamValue>, dataset: LoadedDataset): Retriever {
  switch (pipeline) {
    case 'bm25': {
      rejectUnknown(params, [...ANALYZER_KEYS, ...BM25_KEYS], pipeline);
      const bm25: Partial<Bm25Params> = {};
      for (const key of ['k1', 'b', 'd'] as const) if (key in params) bm25[key] = expectNumber(key, params[key]);
      if ('termCountBoost' in params) bm25.termCountBoost = expectBoolean('termCountBoost', params.termCountBoost);
      try {
        return new Bm25Retriever(dataset.index, { ...OKAPI_BM25, ...bm25 });
      } catch (error) {
        throw new CliError((error as Error).message);
      }
    }
    case 'dense':
    case 'rrf':
    case 'cc':
      throw new CliError(`Pipeline ${pipeline} is not available in this command; use dsw run or dsw search`);
    default:
      throw new CliError(`Unknown pipeline "${pipeline}"; available: bm25`);
  }
}

/** The GQR settings among `--param`s, validated (the reference's messages). */
export function gqrConfigFromParams(params: Record<string, ParamValue>): GqrConfig {
  const config: Record<string, ParamValue> = {};
  for (const key of GQR_KEYS) if (key in params) config[key] = params[key]!;
  try {
    return resolveGqrConfig(config as Partial<GqrConfig>);
  } catch (error) {
    throw new CliError(`--param: ${(error as Error).message}`);
  }
}

/** Rejects a `--param` the pipeline does not take (with the list of those it takes). */
export function checkPipelineParams(pipeline: string, params: Record<string, ParamValue>): void {
  const known = [...ANALYZER_KEYS, ...BM25_KEYS, ...(pipeline === 'bm25' ? [] : DENSE_KEYS), ...(pipeline === 'rrf' ? RRF_KEYS : []), ...(pipeline === 'cc' ? CC_KEYS : []), ...(pipeline === 'gqr' ? GQR_KEYS : [])];
  rejectUnknown(params, known, pipeline);
}

function rejectUnknown(params: Record<string, ParamValue>, known: string[], pipeline: string): void {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) throw new CliError(`Unknown --param ${key} for pipeline ${pipeline}; known: ${known.join(', ')}`);
  }
}

function expectNumber(name: string, value: ParamValue | undefined, rule?: NumericRule): number {
  if (typeof value !== 'number') throw new CliError(`--param ${name} must be ${rule ? describeRule(rule) : 'a number'}, got "${value}"`);
  const problem = rule && numberProblem(rule, value);
  if (problem) throw new CliError(`--param ${name} ${problem}, got "${value}"`);
  return value;
}

function expectBoolean(name: string, value: ParamValue | undefined): boolean {
  if (typeof value !== 'boolean') throw new CliError(`--param ${name} must be true or false, got "${value}"`);
  return value;
}

function expectOneOf<T extends string>(name: string, value: ParamValue | undefined, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new CliError(`--param ${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}
