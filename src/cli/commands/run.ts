import { DEFAULT_MEASURES, exportRunJson, formatTrecRun, NUMERIC_RULES, runEnvironment, runQuerySet } from '../../core/index.ts';
import { writableTarget, writeOutput } from '../output-file.ts';
import { CliError, type CliCommand, type CliIo } from '../io.ts';
import { prepareRecipeRun, readRecipeFile } from './run-recipe.ts';
import { loadDataset } from '../load-dataset.ts';
import { analyzerFromParams, buildPipelineFromOptions, PIPELINE_HELP } from '../pipeline-options.ts';
import { numberOption, parseParams } from '../params.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { keepEmptyHelp, KEEP_EMPTY_OPTIONS } from '../keep-empty-option.ts';
import { formatValue, parseCommandArgs, parseMeasureOption } from './eval.ts';
import { buildClusterPipeline, openClusterCorpus, openSearchHelp, OPENSEARCH_OPTIONS } from '../cluster-corpus.ts';

export const runHelp = `Usage: dsw run --dataset <dir> [--pipeline bm25|dense|rrf|cc] [--model <folder or id>] [--param name=value ...] [--top-k 1000]
               [--out <file>] [--tag <name>] [--save-json <file>] [--name <name>] [--measures <list>]
               [--encoding utf-8|latin1]
       dsw run --opensearch <url> --index <name> [same options as with --dataset]
       dsw run --recipe <recipe.json> --dataset <dir> [--model <folder>] [--models-dir <dir>] [--out <file>] [--save-json <file>]

Runs every query of a dataset through a pipeline and writes a TREC run file (qid Q0 docid rank score tag),
a saved-run JSON file (the workbench's format, importable on the Runs page), or both.
  --dataset    BEIR folder with queries.jsonl
${PIPELINE_HELP}  --top-k      results per query (default 1000)
  --out        TREC run file to write
  --tag        run tag in the last column (default: the pipeline name)
  --save-json  run file to write as JSON: pipeline, full configuration, versions, rankings, and metrics
               when the dataset has qrels
  --name       run name in the JSON file (default: the tag)
  --measures   comma-separated measures scored into the JSON file (default ${DEFAULT_MEASURES.join(',')})
${encodingHelp(11)}
${keepEmptyHelp(11)}
${openSearchHelp()}  --recipe     a run recipe exported by the app (Runs → Recipe): its pipeline, k, measures, analyzer and
               model are used; the dataset's documents, queries and qrels and the model's files must match
               it (every difference is listed), and the metrics are printed beside the recipe's
`;

export const runCommand: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      pipeline: { type: 'string', default: 'bm25' },
      param: { type: 'string', multiple: true },
      'top-k': { type: 'string' },
      out: { type: 'string' },
      tag: { type: 'string' },
      model: { type: 'string' },
      'models-dir': { type: 'string' },
      'model-host': { type: 'string' },
      'vector-cache': { type: 'string' },
      'save-json': { type: 'string' },
      name: { type: 'string' },
      measures: { type: 'string', multiple: true },
      ...ENCODING_OPTIONS,
      ...KEEP_EMPTY_OPTIONS,
      recipe: { type: 'string' },
      ...OPENSEARCH_OPTIONS,
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(runHelp);
    return 0;
  }
  const cluster = await openClusterCorpus(values);
  if (!values.dataset && !cluster) throw new CliError('dsw run needs --dataset <dir> (or --opensearch <url> --index <name>)');
  if (cluster && values.recipe !== undefined) throw new CliError('--recipe runs on a --dataset; an OpenSearch corpus takes --pipeline and --param');
  if (!values.out && !values['save-json']) throw new CliError('dsw run needs --out <file> or --save-json <file>');
  if (values.recipe !== undefined) return runRecipe(values, io);
  const topK = numberOption('--top-k', values['top-k'], NUMERIC_RULES.topK, 1000);
  const params = parseParams(values.param);
  const measures = parseMeasureOption(values.measures).map((m) => m.name);
  const out = values.out === undefined ? null : writableTarget(io.cwd, values.out);
  const jsonOut = values['save-json'] === undefined ? null : writableTarget(io.cwd, values['save-json']);
  const models = { model: values.model, modelsDir: values['models-dir'], modelHost: values['model-host'], vectorCache: values['vector-cache'] };
  const dataset = cluster
    ? cluster
    : await loadDataset(values.dataset!, io, {
        analyzer: analyzerFromParams(params),
        encoding: encodingOption(values.encoding),
        keepEmptyDocuments: values['keep-empty-documents'],
        documents: values.pipeline === 'bm25' ? 'stream' : 'memory',
      });
  const { spec, resources, runtime, environment } = cluster
    ? await buildClusterPipeline(values.pipeline!, params, cluster, io, models)
    : await buildPipelineFromOptions(values.pipeline!, params, dataset as Awaited<ReturnType<typeof loadDataset>>, io, models);
  const queries = await dataset.store.getQueries(dataset.corpus.id);
  if (queries.length === 0) throw new CliError(`${values.dataset ?? values.index} has no queries (queries.jsonl)`);
  const tag = values.tag ?? values.pipeline!;
  const { record, run } = await runQuerySet(
    { corpusId: dataset.corpus.id, spec, k: topK, name: values.name ?? tag, measures, runtime, environment: runEnvironment(environment.host, spec, environment.modelFiles) },
    { corpora: dataset.store, resources },
  );
  const elapsedMs = record.elapsedMs ?? 0;
  if (out) writeOutput(out, values.out!, formatTrecRun(run, tag));
  if (jsonOut) {
    writeOutput(jsonOut, values['save-json']!, exportRunJson(record));
    if (record.metrics) {
      const scores = record.measures.map((m) => `${m} ${formatValue(record.metrics!.aggregate[m]!)}`).join(', ');
      io.err(`${record.metrics.queryCount} judged queries: ${scores}\n`);
    } else {
      io.err('The dataset has no relevance judgements: the JSON run has no metrics.\n');
    }
  }
  const targets = [values.out, values['save-json']].filter(Boolean).join(' and ');
  io.err(`${queries.length} queries, ${(elapsedMs / 1000).toFixed(2)} s → ${targets}\n`);
  return 0;
};

async function runRecipe(values: Record<string, string | boolean | string[] | undefined>, io: CliIo): Promise<number> {
  for (const flag of ['param', 'top-k', 'measures', 'encoding', 'model-host'] as const) {
    if (values[flag] !== undefined) throw new CliError(`--${flag} cannot be combined with --recipe: the recipe fixes it`);
  }
  if (values.pipeline !== 'bm25') throw new CliError('--pipeline cannot be combined with --recipe: the recipe fixes it');
  const recipe = readRecipeFile(io.cwd, values.recipe as string);
  const out = values.out === undefined ? null : writableTarget(io.cwd, values.out as string);
  const jsonOut = values['save-json'] === undefined ? null : writableTarget(io.cwd, values['save-json'] as string);
  const prepared = await prepareRecipeRun(recipe, values.dataset as string, io, { model: values.model as string | undefined, modelsDir: values['models-dir'] as string | undefined });
  const tag = (values.tag as string | undefined) ?? prepared.spec.kind;
  const { record, run } = await runQuerySet(
    { corpusId: prepared.dataset.corpus.id, spec: prepared.spec, k: prepared.k, name: (values.name as string | undefined) ?? recipe.name, measures: prepared.measures, environment: prepared.environment },
    { corpora: prepared.dataset.store, resources: prepared.resources },
  );
  if (out) writeOutput(out, values.out as string, formatTrecRun(run, tag));
  if (jsonOut) writeOutput(jsonOut, values['save-json'] as string, exportRunJson(record));
  if (record.metrics) {
    const lines = record.measures.map((m) => {
      const now = record.metrics!.aggregate[m]!;
      const then = recipe.metrics?.[m];
      return then === undefined ? `  ${m} ${formatValue(now)}` : `  ${m} ${formatValue(now)} (recipe ${formatValue(then)}, difference ${Math.abs(now - then).toExponential(1)})`;
    });
    io.err(`Reproduced “${recipe.name}” on ${record.metrics.queryCount} judged queries:\n${lines.join('\n')}\n`);
  }
  return 0;
}
