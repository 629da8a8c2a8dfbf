import { NUMERIC_RULES } from '../../core/index.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { keepEmptyHelp, KEEP_EMPTY_OPTIONS } from '../keep-empty-option.ts';
import { CliError, type CliCommand } from '../io.ts';
import { loadDataset } from '../load-dataset.ts';
import { analyzerFromParams, buildPipelineFromOptions, PIPELINE_HELP } from '../pipeline-options.ts';
import { numberOption, parseParams } from '../params.ts';
import { formatTable } from '../table.ts';
import { buildClusterPipeline, openClusterCorpus, openSearchHelp, OPENSEARCH_OPTIONS } from '../cluster-corpus.ts';
import { parseCommandArgs } from './eval.ts';

export const searchHelp = `Usage: dsw search --dataset <dir> --query "<text>" [--pipeline bm25|dense|rrf|cc] [--model <folder or id>]
                  [--param name=value ...] [--top-k 10] [--json]

Searches a dataset (a BEIR folder, or a folder of .jsonl/.csv/.tsv/.txt/.md files) and prints the ranking.
  --dataset   folder (or single file) to load
  --query     query text
${PIPELINE_HELP}  --top-k     number of results (default 10)
  --json      print JSON: [{"rank", "id", "score", "title"}]
${encodingHelp(9)}
${keepEmptyHelp(9)}
${openSearchHelp()}`;

export const searchCommand: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      query: { type: 'string' },
      pipeline: { type: 'string', default: 'bm25' },
      param: { type: 'string', multiple: true },
      'top-k': { type: 'string' },
      model: { type: 'string' },
      'models-dir': { type: 'string' },
      'model-host': { type: 'string' },
      ...ENCODING_OPTIONS,
      ...KEEP_EMPTY_OPTIONS,
      json: { type: 'boolean', default: false },
      ...OPENSEARCH_OPTIONS,
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(searchHelp);
    return 0;
  }
  const cluster = await openClusterCorpus(values);
  if (!values.dataset && !cluster) throw new CliError('dsw search needs --dataset <dir> (or --opensearch <url> --index <name>)');
  if (values.query === undefined || values.query.trim() === '') throw new CliError('dsw search needs --query "<text>"');
  const topK = numberOption('--top-k', values['top-k'], NUMERIC_RULES.topK, 10);
  const params = parseParams(values.param);
  const models = { model: values.model, modelsDir: values['models-dir'], modelHost: values['model-host'] };
  const dataset = cluster
    ? cluster
    : await loadDataset(values.dataset!, io, {
        analyzer: analyzerFromParams(params),
        documents: values.pipeline === 'bm25' ? 'stream' : 'memory',
        encoding: encodingOption(values.encoding),
        keepEmptyDocuments: values['keep-empty-documents'],
      });
  const { retriever } = cluster
    ? await buildClusterPipeline(values.pipeline!, params, cluster, io, models)
    : await buildPipelineFromOptions(values.pipeline!, params, dataset as Awaited<ReturnType<typeof loadDataset>>, io, models);
  const hits = await retriever.search(values.query, topK);
  const docs = await dataset.store.getDocuments(dataset.corpus.id, hits.map((h) => h.id));
  const rows = hits.map((hit, i) => ({ rank: i + 1, id: hit.id, score: hit.score, title: docs[i]?.title ?? '' }));
  if (values.json) io.out(JSON.stringify(rows, null, 2) + '\n');
  else io.out(formatTable(['rank', 'id', 'score', 'title'], rows.map((r) => [String(r.rank), r.id, r.score.toFixed(4), r.title])));
  return 0;
};
