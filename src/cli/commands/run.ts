import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatTrecRun, runQueries } from '../../core/index.ts';
import { CliError, type CliCommand } from '../io.ts';
import { loadDataset } from '../load-dataset.ts';
import { analyzerFromParams, retrieverFromOptions } from '../pipeline-options.ts';
import { parseParams, positiveInt } from '../params.ts';

export const runHelp = `Usage: dsw run --dataset <dir> --pipeline bm25 [--param name=value ...] [--top-k 1000] --out <file> [--tag <name>]

Runs every query of a dataset through a pipeline and writes a TREC run file (qid Q0 docid rank score tag).
  --dataset   BEIR folder with queries.jsonl
  --pipeline  retrieval pipeline (default bm25)
  --param     pipeline setting, repeatable: k1, b, d, termCountBoost, lowercase, stopWords, stemming
  --top-k     results per query (default 1000)
  --out       run file to write
  --tag       run tag in the last column (default: the pipeline name)
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
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(runHelp);
    return 0;
  }
  if (!values.dataset) throw new CliError('dsw run needs --dataset <dir>');
  if (!values.out) throw new CliError('dsw run needs --out <file>');
  const topK = positiveInt('--top-k', values['top-k'], 1000);
  const params = parseParams(values.param);
  const out = path.resolve(io.cwd, values.out);
  if (!fs.existsSync(path.dirname(out))) throw new CliError(`Cannot write ${values.out}: folder ${path.dirname(values.out)} does not exist`);
  const dataset = await loadDataset(values.dataset, io, analyzerFromParams(params));
  const retriever = retrieverFromOptions(values.pipeline!, params, dataset);
  const queries = await dataset.store.getQueries(dataset.corpus.id);
  if (queries.length === 0) throw new CliError(`Dataset ${values.dataset} has no queries (queries.jsonl)`);
  const started = performance.now();
  const run = await runQueries(retriever, queries, topK);
  try {
    fs.writeFileSync(out, formatTrecRun(run, values.tag ?? values.pipeline!));
  } catch (error) {
    throw new CliError(`Cannot write ${values.out}: ${(error as Error).message}`);
  }
  io.err(`${queries.length} queries, ${((performance.now() - started) / 1000).toFixed(2)} s → ${values.out}\n`);
  return 0;
};
