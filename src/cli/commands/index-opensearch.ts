import { createHash } from 'node:crypto';
import path from 'node:path';
import { abortError, DEFAULT_HNSW, indexIntoOpenSearch, isAbortError, OpenSearchClient, setClusterBm25, type FileSource } from '../../core/index.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { keepEmptyHelp, KEEP_EMPTY_OPTIONS } from '../keep-empty-option.ts';
import { CliError, type CliCommand, type CliIo } from '../io.ts';
import { directorySources } from '../node-sources.ts';
import { parseParams } from '../params.ts';
import { analyzerFromParams, loadCliEmbedder } from '../pipeline-options.ts';
import { parseCommandArgs } from './eval.ts';

export const indexHelp = `Usage: dsw index --dataset <dir> --opensearch <url> --index <name> [--model <folder or id>] [--shards 1]
                 [--param name=value ...] [--hnsw-m 16] [--hnsw-ef-construction 100] [--replace]
       dsw index --opensearch <url> --index <name> --set-bm25 k1=<k1>,b=<b>

Streams a dataset into an OpenSearch index (bulk requests, with progress) so that run, sweep, hds, search and serve
can work on it with --opensearch <url> --index <name> (docs/opensearch.md). Documents go to <name>, the corpus record,
queries and qrels to <name>__dsw. Stopped (Ctrl-C) or failed, the same command continues where it stopped; an index
holding another corpus (other files or settings) is refused unless --replace.
  --dataset       BEIR folder (or any loadable folder or file)
  --opensearch    OpenSearch address, e.g. http://127.0.0.1:9200 (npm run opensearch -- start)
  --index         index name: lower-case letters, digits, '.', '_' and '-'
  --model         embed every document with this model (as dsw run does) into a knn_vector field, for dense,
                  fusion and GQR pipelines
  --models-dir    folder of model folders for --model ids (default public/models)
  --shards        primary shards (default 1); scores do not depend on it (dfs_query_then_fetch)
  --param         analyzer (lowercase, stopWords, stemming), BM25 (k1, b: index settings; default 0.9, 0.4) and
                  model settings (dtype, pooling, queryPrefix, passagePrefix, maxTokens, batchSize)
  --hnsw-m, --hnsw-ef-construction  the vector field's HNSW graph (default ${DEFAULT_HNSW.m}, ${DEFAULT_HNSW.efConstruction})
  --replace       delete whatever the index holds first
  --set-bm25      change k1 and b of an indexed corpus in place (the index is closed for a moment; no reindex)
${encodingHelp(16)}
${keepEmptyHelp(16)}
`;

const INDEX_PARAMS = ['lowercase', 'stopWords', 'stemming', 'k1', 'b', 'dtype', 'pooling', 'queryPrefix', 'passagePrefix', 'maxTokens', 'batchSize'];

export const indexCommand: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      opensearch: { type: 'string' },
      index: { type: 'string' },
      model: { type: 'string' },
      'models-dir': { type: 'string' },
      shards: { type: 'string' },
      param: { type: 'string', multiple: true },
      'hnsw-m': { type: 'string' },
      'hnsw-ef-construction': { type: 'string' },
      replace: { type: 'boolean', default: false },
      'set-bm25': { type: 'string' },
      ...ENCODING_OPTIONS,
      ...KEEP_EMPTY_OPTIONS,
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(indexHelp);
    return 0;
  }
  if (!values.opensearch) throw new CliError('dsw index needs --opensearch <url>, e.g. http://127.0.0.1:9200');
  if (!values.index) throw new CliError('dsw index needs --index <name>');
  const client = clientOf(values.opensearch);
  if (values['set-bm25'] !== undefined) return setBm25(client, values.index, values['set-bm25'], io);
  if (!values.dataset) throw new CliError('dsw index needs --dataset <dir>');
  const params = parseParams(values.param);
  const unknown = Object.keys(params).filter((key) => !INDEX_PARAMS.includes(key));
  if (unknown.length > 0) throw new CliError(`dsw index does not take --param ${unknown.join(', ')}; it takes ${INDEX_PARAMS.join(', ')}`);
  const whole = (flag: string, value: string | undefined, fallback: number, max: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new CliError(`${flag} must be a whole number from 1 to ${max}, got "${value}"`);
    return n;
  };
  const shards = whole('--shards', values.shards, 1, 1024);
  const hnsw = { m: whole('--hnsw-m', values['hnsw-m'], DEFAULT_HNSW.m, 512), efConstruction: whole('--hnsw-ef-construction', values['hnsw-ef-construction'], DEFAULT_HNSW.efConstruction, 10_000) };
  const bm25 = { k1: typeof params.k1 === 'number' ? params.k1 : 0.9, b: typeof params.b === 'number' ? params.b : 0.4 };
  if (!(bm25.k1 >= 0) || !(bm25.b >= 0 && bm25.b <= 1)) throw new CliError('--param k1 must be ≥ 0 and b between 0 and 1');
  const full = path.resolve(io.cwd, values.dataset);
  const sources = await directorySources(full);
  if (sources.length === 0) throw new CliError(`Dataset ${values.dataset} holds no files`);
  const embedder = values.model ? (await loadCliEmbedder(params, io, { model: values.model, modelsDir: values['models-dir'] })).embedder : undefined;

  const controller = new AbortController();
  const stop = () => controller.abort(abortError('Stopped (Ctrl-C)'));
  process.once('SIGINT', stop);
  const started = performance.now();
  let lastReport = 0;
  try {
    const result = await indexIntoOpenSearch(
      sources,
      {
        index: values.index,
        name: path.basename(full),
        fingerprint: await fingerprint(sources),
        analyzer: analyzerFromParams(params),
        bm25,
        shards,
        embedder,
        hnsw,
        replace: values.replace,
        encoding: encodingOption(values.encoding),
        keepEmptyDocuments: values['keep-empty-documents'],
      },
      client,
      (p) => {
        const now = performance.now();
        if (now - lastReport < 2000) return;
        lastReport = now;
        const rate = p.documentsRead / ((now - started) / 1000);
        const share = p.bytesTotal > 0 ? ` (${((100 * p.bytesDone) / p.bytesTotal).toFixed(0)} % of the files read)` : '';
        io.err(`  ${p.documentsDone.toLocaleString('en-US')} documents in the index${share}, ${rate.toFixed(0)} docs/s\n`);
      },
      controller.signal,
    );
    const { record } = result.meta;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.outcome === 'unchanged') io.err(`"${values.index}" already holds this dataset, complete (${record.documentCount} documents); nothing to do\n`);
    else {
      io.err(
        `${result.outcome === 'resumed' ? `Continued after document ${result.resumedAt}: ` : ''}${record.documentCount} documents, ${record.queryCount} queries, ${record.qrelCount} qrels ` +
          `in ${values.opensearch} index "${values.index}" (${shards} shard${shards === 1 ? '' : 's'}${embedder ? `, vectors of ${embedder.info.modelId}` : ''}) in ${seconds} s\n`,
      );
    }
    if (record.issueCount > 0) io.err(`${record.issueCount} problem(s) in the data; the rest was indexed (first: ${record.issues[0]?.file}${record.issues[0]?.line ? `:${record.issues[0].line}` : ''}: ${record.issues[0]?.reason})\n`);
    io.out(`${values.opensearch.replace(/\/+$/, '')} ${values.index}\n`);
    return 0;
  } catch (error) {
    if (isAbortError(error)) {
      io.err(`Stopped; the documents written so far stay in "${values.index}": run the same command again to continue.\n`);
      return 1;
    }
    throw new CliError((error as Error).message);
  } finally {
    process.off('SIGINT', stop);
    await embedder?.dispose();
  }
};

function clientOf(url: string): OpenSearchClient {
  try {
    return new OpenSearchClient({ url });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

async function setBm25(client: OpenSearchClient, index: string, text: string, io: CliIo): Promise<number> {
  const params = parseParams(text.split(','));
  const { k1, b } = params;
  if (typeof k1 !== 'number' || typeof b !== 'number' || k1 < 0 || b < 0 || b > 1 || Object.keys(params).length !== 2) {
    throw new CliError(`--set-bm25 takes k1=<number ≥ 0>,b=<number from 0 to 1>, got "${text}"`);
  }
  try {
    await setClusterBm25(client, index, { k1, b });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  io.err(`"${index}" now scores BM25 with k1=${k1}, b=${b}\n`);
  return 0;
}

/** Identity of the source files: paths, sizes and the first MiB of each (enough to tell datasets apart cheaply). */
async function fingerprint(sources: FileSource[]): Promise<string> {
  const hash = createHash('sha256');
  for (const source of sources) {
    hash.update(`${source.path ?? source.name}\0${source.size}\0`);
    const reader = source.stream().getReader();
    let read = 0;
    while (read < 1 << 20) {
      const { done, value } = await reader.read();
      if (done) break;
      hash.update(value);
      read += value.length;
    }
    await reader.cancel().catch(() => undefined);
  }
  return hash.digest('hex');
}

