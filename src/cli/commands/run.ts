import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildQrelsMap,
  buildRunRecord,
  DEFAULT_MEASURES,
  exportRunJson,
  formatTrecRun,
  runQueries,
} from '../../core/index.ts';
import { CliError, type CliCommand } from '../io.ts';
import { loadDataset } from '../load-dataset.ts';
import { analyzerFromParams, buildPipelineFromOptions, PIPELINE_HELP } from '../pipeline-options.ts';
import { parseParams, positiveInt } from '../params.ts';
import { formatValue, parseMeasureOption } from './eval.ts';

export const runHelp = `Usage: dsw run --dataset <dir> [--pipeline bm25|dense|rrf|cc] [--model <folder or id>] [--param name=value ...] [--top-k 1000]
               [--out <file>] [--tag <name>] [--save-json <file>] [--name <name>] [--measures <list>]

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
`;

export const runCommand: CliCommand = async (argv, io) => {
  const { values } = parseArgs({
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
      'save-json': { type: 'string' },
      name: { type: 'string' },
      measures: { type: 'string', multiple: true },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(runHelp);
    return 0;
  }
  if (!values.dataset) throw new CliError('dsw run needs --dataset <dir>');
  if (!values.out && !values['save-json']) throw new CliError('dsw run needs --out <file> or --save-json <file>');
  const topK = positiveInt('--top-k', values['top-k'], 1000);
  const params = parseParams(values.param);
  const measures = parseMeasureOption(values.measures).map((m) => m.name);
  const out = values.out === undefined ? null : writableTarget(io.cwd, values.out);
  const jsonOut = values['save-json'] === undefined ? null : writableTarget(io.cwd, values['save-json']);
  const dataset = await loadDataset(values.dataset, io, analyzerFromParams(params), values.pipeline === 'bm25' ? 'stream' : 'memory');
  const { retriever, spec } = await buildPipelineFromOptions(values.pipeline!, params, dataset, io, {
    model: values.model,
    modelsDir: values['models-dir'],
    modelHost: values['model-host'],
  });
  const queries = await dataset.store.getQueries(dataset.corpus.id);
  if (queries.length === 0) throw new CliError(`Dataset ${values.dataset} has no queries (queries.jsonl)`);
  const tag = values.tag ?? values.pipeline!;
  const started = performance.now();
  const run = await runQueries(retriever, queries, topK);
  const elapsedMs = performance.now() - started;
  if (out) write(out, values.out!, formatTrecRun(run, tag));
  if (jsonOut) {
    const record = buildRunRecord({
      name: values.name ?? tag,
      corpusId: dataset.corpus.id,
      corpusName: dataset.corpus.name,
      pipeline: spec,
      config: retriever.config,
      run,
      k: topK,
      qrels: buildQrelsMap(await dataset.store.getQrels(dataset.corpus.id)),
      measures,
      elapsedMs,
    });
    write(jsonOut, values['save-json']!, exportRunJson(record));
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

function writableTarget(cwd: string, file: string): string {
  const full = path.resolve(cwd, file);
  if (!fs.existsSync(path.dirname(full))) throw new CliError(`Cannot write ${file}: folder ${path.dirname(file)} does not exist`);
  return full;
}

function write(full: string, shown: string, text: string): void {
  try {
    fs.writeFileSync(full, text);
  } catch (error) {
    throw new CliError(`Cannot write ${shown}: ${(error as Error).message}`);
  }
}
