import {
  DEFAULT_RRF_K,
  NUMERIC_RULES,
  describeSettings,
  expandGrid,
  exportRunsJson,
  buildRetriever,
  GqrRetriever,
  parseGridAxis,
  RecipeError,
  sweepRequestOfRecipe,
  runSweep,
  sweepQueries,
  SweepGridError,
  type GridAxis,
  type RunEnvironmentSource,
  type SweepEvaluation,
  type SweepRunScores,
} from '../../core/index.ts';
import { writableTarget, writeOutput } from '../output-file.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { keepEmptyHelp, KEEP_EMPTY_OPTIONS } from '../keep-empty-option.ts';
import { CliError, type CliCommand, type CliIo } from '../io.ts';
import { loadDataset, type LoadedDataset } from '../load-dataset.ts';
import { analyzerFromParams, buildPipelineFromOptions, gqrConfigFromParams } from '../pipeline-options.ts';
import { buildClusterPipeline, openClusterCorpus, openSearchHelp, OPENSEARCH_OPTIONS } from '../cluster-corpus.ts';
import { numberOption, parseParams } from '../params.ts';
import { formatTable } from '../table.ts';
import { formatValue, parseCommandArgs, parseMeasureOption } from './eval.ts';
import { prepareRecipeDataset, readRecipeFile } from './run-recipe.ts';

export const sweepHelp = `Usage: dsw sweep --dataset <dir> --pipeline gqr --grid key=v1,v2,... [--grid ...] --model <model>
                 [--param name=value ...] [--top-k 10] [--measures nDCG@10,R@100] [--json]
                 [--models-dir <dir>] [--model-host <url>] [--vector-cache <dir>] [--save-json <file>] [--name <name>]
       dsw sweep --recipe <recipe.json> --dataset <dir> [--model <folder>] [--models-dir <dir>] [--json] [--save-json <file>]

Sweeps GQR settings over every query of a dataset. Both children (dense primary, BM25 complementary) run once
per query; every grid point re-ranks those same results. Prints one row per grid point with the measures and
wins/ties/losses against the primary on the first measure, then the baselines computed from the same child
results: primary only, complementary only, RRF (k 60) and the best convex combination (weights 0, 0.1, …, 1).
  --dataset   BEIR folder with corpus.jsonl, queries.jsonl and qrels
${openSearchHelp()}  --pipeline  gqr (the only sweepable pipeline)
  --grid      a swept setting and its values, repeatable: mixtureAlpha, temperature, learningRate, nSteps,
              candidatePoolMode (union,primary), target (per-step,fixed), optimizer (gd,adam)
  --model     embedding model of the dense primary: a model folder (e.g. public/models/tiny-bert), or a
              model id looked up in --models-dir (default public/models) or downloaded from --model-host
  --vector-cache  folder where document vectors are kept between runs (as in dsw run)
  --param     a fixed setting, repeatable: GQR (fetchKMultiplier, poolSize, nSteps, learningRate, temperature,
              mixtureAlpha, candidatePoolMode, scorerMode, target, optimizer), BM25 (k1, b, d, termCountBoost,
              lowercase, stopWords, stemming), dense (dtype, pooling, queryPrefix, passagePrefix, maxTokens,
              batchSize, tokens, searchMode single|multi)
  --top-k     results kept per query (default 10; each child fetches top-k × fetchKMultiplier, or poolSize)
  --measures  comma-separated measures (default nDCG@10,R@100)
  --json      print JSON: {points: [...], baselines: [...], best, ...}
${encodingHelp(9)}
${keepEmptyHelp(9)}
  --save-json write the sweep as saved runs (one per grid point and baseline) to a JSON file; import it on
              the Runs page and the sweep opens in the GQR lab
  --name      name of the sweep in that file (default: sweep <dataset>)
  --recipe    a sweep recipe exported by the app (GQR lab → Recipe): its GQR pipeline, grid, top k, measures,
              analyzer and model are used; the dataset and the model files must match it (every difference is
              listed), and each grid point's measures are printed beside the recipe's
`;


export const sweepCommand: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      ...ENCODING_OPTIONS,
      ...KEEP_EMPTY_OPTIONS,
      pipeline: { type: 'string', default: 'gqr' },
      grid: { type: 'string', multiple: true },
      model: { type: 'string' },
      'models-dir': { type: 'string' },
      'model-host': { type: 'string' },
      'vector-cache': { type: 'string' },
      param: { type: 'string', multiple: true },
      'top-k': { type: 'string' },
      measures: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      'save-json': { type: 'string' },
      name: { type: 'string' },
      recipe: { type: 'string' },
      ...OPENSEARCH_OPTIONS,
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(sweepHelp);
    return 0;
  }
  const cluster = await openClusterCorpus(values);
  if (!values.dataset && !cluster) throw new CliError('dsw sweep needs --dataset <dir> (or --opensearch <url> --index <name>)');
  if (cluster && values.recipe !== undefined) throw new CliError('--recipe sweeps a --dataset; an OpenSearch corpus takes --grid and --param');
  if (values.recipe !== undefined) return sweepRecipe(values, io);
  if (values.pipeline !== 'gqr') throw new CliError(`dsw sweep sweeps --pipeline gqr only, got "${values.pipeline}"`);
  if (!values.grid || values.grid.length === 0) throw new CliError('dsw sweep needs at least one --grid key=v1,v2,…, e.g. --grid mixtureAlpha=0,0.5,1');
  if (!values.model) {
    throw new CliError("GQR's primary is dense retrieval: give --model <model folder>, e.g. --model public/models/tiny-bert");
  }
  const topK = numberOption('--top-k', values['top-k'], NUMERIC_RULES.topK, 10);
  const measures = parseMeasureOption(values.measures?.length ? values.measures : ['nDCG@10,R@100']).map((m) => m.name);
  const params = parseParams(values.param);
  const base = gqrConfigFromParams(params);
  let axes: GridAxis[];
  let points;
  try {
    axes = values.grid.map(parseGridAxis);
    points = expandGrid(axes, base);
  } catch (error) {
    if (error instanceof SweepGridError) throw new CliError(error.message);
    throw error;
  }
  for (const m of measures) {
    const cutoff = Number(m.split('@')[1]);
    if (Number.isFinite(cutoff) && cutoff > topK) io.err(`Note: ${m} is computed over the ${topK} results kept per query (--top-k ${topK}).\n`);
  }

  const jsonOut = values['save-json'] === undefined ? null : writableTarget(io.cwd, values['save-json']);

  const dataset = cluster ?? (await loadDataset(values.dataset!, io, { analyzer: analyzerFromParams(params), encoding: encodingOption(values.encoding), keepEmptyDocuments: values['keep-empty-documents'] }));
  const queries = await dataset.store.getQueries(dataset.corpus.id);
  const source = values.dataset ? `Dataset ${values.dataset}` : `The OpenSearch corpus ${values.index}`;
  if (queries.length === 0) throw new CliError(`${source} has no queries (queries.jsonl)`);
  if ((await dataset.store.getQrels(dataset.corpus.id)).length === 0) {
    throw new CliError(`${source} has no relevance judgements (qrels), so the sweep cannot be scored`);
  }
  const models = { model: values.model, modelsDir: values['models-dir'], modelHost: values['model-host'], vectorCache: values['vector-cache'] };
  const { retriever: gqr, spec, environment } = cluster
    ? await buildClusterPipeline('gqr', params, cluster, io, models)
    : await buildPipelineFromOptions('gqr', params, dataset as LoadedDataset, io, models);
  if (!(gqr instanceof GqrRetriever) || spec.kind !== 'gqr') throw new Error('--pipeline gqr did not build a GQR retriever');
  let prepared = 0;
  const request = { corpusId: dataset.corpus.id, name: values.name ?? `sweep ${dataset.corpus.name}`, spec, axes, topK, measures, environment };
  const compute = async (job: Parameters<typeof sweepQueries>[2], onProgress: NonNullable<Parameters<typeof sweepQueries>[3]>) => ({
    runs: await sweepQueries(gqr, queries, job, onProgress),
    config: gqr.config,
  });
  const { sweep, records } = await runSweep(request, { corpora: dataset.store, compute }, {
    onProgress: (p) => {
      if (p.phase === 'prepare') prepared = p.done;
    },
  });
  const { evaluation, elapsedMs } = sweep;
  io.err(`${prepared} queries × ${points.length} grid points in ${(elapsedMs / 1000).toFixed(2)} s\n`);
  if (sweep.childFallbacks > 0) io.err(`${sweep.childFallbacks} queries: a child could not embed the query and the other's list stood in.\n`);
  if (jsonOut) {
    writeOutput(jsonOut, values['save-json']!, exportRunsJson(records));
    io.err(`${records.length} runs of the sweep “${sweep.name}” → ${values['save-json']} (import it on the Runs page; it opens in the GQR lab)\n`);
  }

  if (values.json) {
    io.out(`${JSON.stringify(sweepJson(evaluation, points, axes, dataset, values.model, topK, elapsedMs), null, 2)}\n`);
    return 0;
  }
  printTables(io, evaluation, points, axes);
  return 0;
};

async function sweepRecipe(values: Record<string, string | boolean | string[] | undefined>, io: CliIo): Promise<number> {
  for (const flag of ['grid', 'param', 'top-k', 'measures', 'encoding', 'model-host'] as const) {
    if (values[flag] !== undefined) throw new CliError(`--${flag} cannot be combined with --recipe: the recipe fixes it`);
  }
  if (values.pipeline !== 'gqr') throw new CliError('--pipeline cannot be combined with --recipe: the recipe fixes it');
  const file = values.recipe as string;
  const recipe = readRecipeFile(io.cwd, file);
  let request;
  try {
    request = sweepRequestOfRecipe(recipe);
  } catch (error) {
    if (error instanceof RecipeError) throw new CliError(`${file} cannot be used as a sweep recipe: ${error.message}`);
    throw error;
  }
  const { spec, axes, topK, measures, pointMetrics } = request;
  const jsonOut = values['save-json'] === undefined ? null : writableTarget(io.cwd, values['save-json'] as string);
  const datasetDir = values.dataset as string;
  const models = { model: values.model as string | undefined, modelsDir: values['models-dir'] as string | undefined, vectorCache: values['vector-cache'] as string | undefined };
  const { dataset, resources, environment } = await prepareRecipeDataset(recipe, datasetDir, io, models, 'dsw sweep');
  const queries = await dataset.store.getQueries(dataset.corpus.id);
  let gqr;
  try {
    gqr = await buildRetriever(spec, resources);
  } catch (error) {
    throw new CliError(`The recipe's GQR pipeline cannot be built: ${(error as Error).message}`);
  }
  if (!(gqr instanceof GqrRetriever)) throw new Error('The recipe did not build a GQR retriever');
  const retriever = gqr;
  const points = expandGrid(axes, spec.config);
  const sweepEnvironment: RunEnvironmentSource = environment;
  const compute = async (job: Parameters<typeof sweepQueries>[2], onProgress: NonNullable<Parameters<typeof sweepQueries>[3]>) => ({
    runs: await sweepQueries(retriever, queries, job, onProgress),
    config: retriever.config,
  });
  const { sweep, records } = await runSweep(
    { corpusId: dataset.corpus.id, name: (values.name as string | undefined) ?? recipe.name, spec, axes, topK, measures, environment: sweepEnvironment },
    { corpora: dataset.store, compute },
  );
  const { evaluation, elapsedMs } = sweep;
  io.err(`${queries.length} queries × ${points.length} grid points in ${(elapsedMs / 1000).toFixed(2)} s\n`);
  if (jsonOut) {
    writeOutput(jsonOut, values['save-json'] as string, exportRunsJson(records));
    io.err(`${records.length} runs of the sweep “${sweep.name}” → ${values['save-json']}\n`);
  }
  const model = recipe.models[0]?.model.modelId ?? '';
  if (values.json) {
    io.out(`${JSON.stringify({ ...sweepJson(evaluation, points, axes, dataset, model, topK, elapsedMs), recipe: { name: recipe.name, pointMetrics } }, null, 2)}\n`);
  } else {
    printTables(io, evaluation, points, axes);
  }
  const lines = points.map((point, i) => {
    const now = evaluation.points[i]!.aggregate;
    const then = pointMetrics[point.id];
    const values = evaluation.measures.map((m) =>
      then?.[m] === undefined ? `${m} ${formatValue(now[m]!)}` : `${m} ${formatValue(now[m]!)} (recipe ${formatValue(then[m])}, difference ${Math.abs(now[m]! - then[m]).toExponential(1)})`,
    );
    return `  ${describeSettings(point.settings)}: ${values.join(', ')}`;
  });
  io.err(`Reproduced “${recipe.name}” on ${evaluation.evaluatedQueries} judged queries:\n${lines.join('\n')}\n`);
  return 0;
}

function sweepJson(
  evaluation: SweepEvaluation,
  points: ReturnType<typeof expandGrid>,
  axes: GridAxis[],
  dataset: Pick<LoadedDataset, 'corpus'>,
  model: string,
  topK: number,
  elapsedMs: number,
) {
  const baseline = (name: string, scores: SweepRunScores, extra: Record<string, unknown> = {}) => ({
    name,
    ...extra,
    measures: scores.aggregate,
    versusPrimary: scores.versusPrimary,
  });
  const first = evaluation.measures[0]!;
  const bestCc = evaluation.cc.find((c) => c.weight === evaluation.bestCc[first]?.at);
  return {
    dataset: dataset.corpus.name,
    model,
    topK,
    queries: dataset.corpus.queryCount,
    evaluatedQueries: evaluation.evaluatedQueries,
    measures: evaluation.measures,
    grid: axes,
    elapsedMs: Math.round(elapsedMs),
    points: points.map((point, i) => {
      const s = evaluation.points[i]!;
      return { id: point.id, settings: point.settings, config: point.config, measures: s.aggregate, versusPrimary: s.versusPrimary, paths: s.pathCounts };
    }),
    baselines: [
      baseline('primary', evaluation.baselines.primary),
      baseline('complementary', evaluation.baselines.complementary),
      baseline('rrf', evaluation.baselines.rrf, { k: DEFAULT_RRF_K }),
      ...(bestCc ? [baseline('cc', bestCc, { weight: bestCc.weight, chosenBy: first, weights: evaluation.cc.map((c) => c.weight) })] : []),
    ],
    best: evaluation.bestPoint,
    bestCc: evaluation.bestCc,
  };
}

function printTables(io: CliIo, evaluation: SweepEvaluation, points: ReturnType<typeof expandGrid>, axes: GridAxis[]): void {
  const first = evaluation.measures[0]!;
  const keys = axes.map((a) => a.key);
  const rows = points.map((point, i) => {
    const s = evaluation.points[i]!;
    const wtl = s.versusPrimary[first]!;
    const paths = Object.entries(s.pathCounts)
      .filter(([, n]) => n > 0)
      .map(([path, n]) => `${path} ${n}`)
      .join(', ');
    return [...keys.map((k) => String(point.settings[k])), ...evaluation.measures.map((m) => formatValue(s.aggregate[m]!)), `${wtl.wins}/${wtl.ties}/${wtl.losses}`, paths];
  });
  io.out(formatTable([...keys, ...evaluation.measures, `W/T/L ${first}`, 'paths'], rows));
  io.out('\n');
  const first2 = (scores: SweepRunScores) => scores.versusPrimary[first];
  const baselineRows: string[][] = [];
  const add = (name: string, scores: SweepRunScores) => {
    const wtl = first2(scores);
    baselineRows.push([name, ...evaluation.measures.map((m) => formatValue(scores.aggregate[m]!)), wtl ? `${wtl.wins}/${wtl.ties}/${wtl.losses}` : '']);
  };
  add('primary only', evaluation.baselines.primary);
  add('complementary only', evaluation.baselines.complementary);
  add(`RRF k=${DEFAULT_RRF_K}`, evaluation.baselines.rrf);
  const bestCc = evaluation.cc.find((c) => c.weight === evaluation.bestCc[first]?.at);
  if (bestCc) add(`best CC w=${bestCc.weight} (by ${first})`, bestCc);
  io.out(formatTable(['baseline', ...evaluation.measures, `W/T/L ${first}`], baselineRows));
  const best = evaluation.bestPoint[first];
  if (best) {
    const point = points.find((p) => p.id === best.at);
    io.out(`\nbest ${first}: ${formatValue(best.value)} at ${point ? describeSettings(point.settings) : best.at}\n`);
  }
}
