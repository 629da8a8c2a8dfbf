import { buildQrelsMap, type RunMap } from '../eval/index.ts';
import { gqrFetchK } from '../gqr/index.ts';
import { buildRetriever, type RetrievalResources, type PipelineSpec, type Retriever, runQueries } from '../retrieval/index.ts';
import { modelsOfPipeline, buildRunRecord, type RunRecord, type RunEnvironment, type RunStore } from '../runs/index.ts';
import type { CorpusStore } from '../storage/index.ts';

/** What a run of a corpus's query set needs. */
export interface QuerySetRequest {
  corpusId: string;
  spec: PipelineSpec;
  /** Results kept per query. */
  k: number;
  /** Name of the saved run. */
  name: string;
  /** Measures scored against the corpus's qrels. */
  measures?: readonly string[];
  /** The host's inference software and versions, recorded on the run (see `RunVersions.runtime`). */
  runtime?: Record<string, string>;
  /** The host's software and the models' file hashes (`runEnvironment`), recorded on the run. */
  environment?: RunEnvironment;
}

/** What the use case runs on. */
export interface QuerySetDeps {
  corpora: CorpusStore;
  /** Indexes and vectors of the corpus. */
  resources: RetrievalResources;
  /** Where the run is saved; absent: the run is only returned (the CLI writes it to a file). */
  runs?: Pick<RunStore, 'saveRun'>;
  /** Called once the retriever is built, before the first query (a worker clears its load log here). */
  onRetrieverReady?(retriever: Retriever): void;
}

export interface QuerySetOptions {
  /** `(done, total)` after every query. */
  onProgress?(done: number, total: number): void;
  signal?: AbortSignal;
}

export interface QuerySetResult {
  /** The run as saved (scored when the corpus has qrels). */
  record: RunRecord;
  /** The same rankings as a RunMap (for TREC export). */
  run: RunMap;
}

/**
 * Runs every stored query of a corpus through a pipeline, scores the rankings against the corpus's qrels and
 * saves the run. Nothing is saved when it fails or is cancelled.
 */
export async function runQuerySet(request: QuerySetRequest, deps: QuerySetDeps, options: QuerySetOptions = {}): Promise<QuerySetResult> {
  const corpus = await deps.corpora.getCorpus(request.corpusId);
  if (!corpus) throw new Error('This corpus is no longer stored: it was deleted, perhaps in another tab.');
  const retriever = await buildRetriever(request.spec, deps.resources);
  deps.onRetrieverReady?.(retriever);
  const queries = await deps.corpora.getQueries(corpus.id);
  if (queries.length === 0) throw new Error(`“${corpus.name}” has no queries to run.`);
  const started = performance.now();
  const run = await runQueries(retriever, queries, request.k, options.onProgress, options.signal);
  const elapsedMs = performance.now() - started;
  options.signal?.throwIfAborted();
  const record = buildRunRecord({
    name: request.name,
    corpusId: corpus.id,
    corpusName: corpus.name,
    pipeline: request.spec,
    // A GQR run records how deep each child fetched: the candidate pool, which follows k unless fixed.
    config: request.spec.kind === 'gqr' ? { ...retriever.config, poolPerChild: gqrFetchK(request.k, request.spec.config) } : retriever.config,
    run,
    k: request.k,
    qrels: buildQrelsMap(await deps.corpora.getQrels(corpus.id)),
    measures: request.measures,
    elapsedMs,
    models: modelsOfPipeline(request.spec),
    runtime: request.runtime,
    environment: request.environment,
  });
  await deps.runs?.saveRun(record);
  return { record, run };
}
