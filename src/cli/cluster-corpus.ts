// `--opensearch <url> --index <name>`: a corpus indexed in OpenSearch (dsw index) in place of `--dataset`, for the
// commands that search (run, sweep, hds, search, serve).
import {
  buildRetriever,
  embeddingModelKey,
  PIPELINE_KINDS,
  OpenSearchClient,
  OpenSearchCorpusStore,
  openSearchResources,
  type ClusterKnnMode,
  type CorpusRecord,
  type PipelineSpec,
  type RetrievalResources,
} from '../core/index.ts';
import { CliError, type CliIo } from './io.ts';
import { nodeHostEnvironment } from './node-environment.ts';
import { bm25Params, checkPipelineParams, loadCliEmbedder, pipelineSpecFromParams, type BuiltPipeline, type ModelOptions } from './pipeline-options.ts';

type ParamValue = string | number | boolean;

export const OPENSEARCH_OPTIONS = {
  opensearch: { type: 'string' },
  index: { type: 'string' },
  'hnsw-ef-search': { type: 'string' },
} as const;

/** Help lines of the options above (indented like the commands' own). */
export function openSearchHelp(): string {
  return `  --opensearch  instead of --dataset: an OpenSearch address (e.g. http://127.0.0.1:9200) holding a corpus
                indexed by dsw index; with --index <name>. Queries and qrels come from the corpus; dense
                pipelines embed queries with --model, which must be the index's model (docs/opensearch.md)
  --hnsw-ef-search  dense search through the HNSW graph with this ef_search (recorded in the run);
                default: exact scoring of every vector
`;
}

/** A corpus in OpenSearch, opened for the CLI. */
export interface ClusterCorpus {
  client: OpenSearchClient;
  index: string;
  store: OpenSearchCorpusStore;
  corpus: CorpusRecord;
  knn: ClusterKnnMode;
}

/** Opens `--opensearch` / `--index`; null when `--opensearch` is absent. Refuses `--dataset` beside them. */
export async function openClusterCorpus(values: { opensearch?: string; index?: string; dataset?: string; 'hnsw-ef-search'?: string }): Promise<ClusterCorpus | null> {
  if (values.opensearch === undefined) {
    if (values.index !== undefined) throw new CliError('--index names a corpus in OpenSearch; give --opensearch <url> too');
    if (values['hnsw-ef-search'] !== undefined) throw new CliError('--hnsw-ef-search applies to an OpenSearch corpus (--opensearch)');
    return null;
  }
  if (values.dataset !== undefined) throw new CliError('Give --dataset <dir> or --opensearch <url> --index <name>, not both');
  if (!values.index) throw new CliError('--opensearch needs --index <name> (the corpus indexed there by dsw index)');
  let knn: ClusterKnnMode = { kind: 'exact' };
  if (values['hnsw-ef-search'] !== undefined) {
    const efSearch = Number(values['hnsw-ef-search']);
    if (!Number.isInteger(efSearch) || efSearch < 1 || efSearch > 10_000) throw new CliError(`--hnsw-ef-search must be a whole number from 1 to 10000, got "${values['hnsw-ef-search']}"`);
    knn = { kind: 'hnsw', efSearch };
  }
  try {
    const client = new OpenSearchClient({ url: values.opensearch });
    const store = await OpenSearchCorpusStore.open(client, values.index);
    return { client, index: values.index, store, corpus: store.record, knn };
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/** Retrieval over the cluster corpus; dense pipelines load `--model` (checked against the index's model) on first use. */
export function clusterResources(cluster: ClusterCorpus, io: CliIo, models: ModelOptions, params: Record<string, ParamValue> = {}): RetrievalResources {
  const { meta } = cluster.store;
  return openSearchResources(cluster.client, cluster.index, meta, {
    knn: cluster.knn,
    embedder: async () => {
      if (!models.model) throw new Error(`Dense pipelines on "${cluster.index}" need --model: the index's vectors were made by ${meta.embedding?.model.modelId ?? 'no model'}`);
      const { embedder } = await loadCliEmbedder(params, io, models);
      if (embeddingModelKey(embedder.info) !== meta.embedding!.modelKey) {
        throw new Error(`--model makes vectors of ${embeddingModelKey(embedder.info)}; the index "${cluster.index}" holds vectors of ${meta.embedding!.modelKey}`);
      }
      return embedder;
    },
  });
}

/** As `buildPipelineFromOptions`, over a cluster corpus: BM25 defaults to the index's own k1 and b. */
export async function buildClusterPipeline(pipeline: string, params: Record<string, ParamValue>, cluster: ClusterCorpus, io: CliIo, models: ModelOptions): Promise<BuiltPipeline> {
  if (!(PIPELINE_KINDS as readonly string[]).includes(pipeline)) throw new CliError(`Unknown pipeline "${pipeline}"; available: ${PIPELINE_KINDS.join(', ')}`);
  checkPipelineParams(pipeline, params);
  const { meta } = cluster.store;
  const bm25: PipelineSpec = { kind: 'bm25', params: bm25Params({ k1: meta.bm25.k1, b: meta.bm25.b, ...params }) };
  if (pipeline !== 'bm25' && !meta.embedding) throw new CliError(`The OpenSearch corpus "${cluster.index}" was indexed without vectors; ${pipeline} needs them (dsw index … --model <folder>)`);
  const spec = pipeline === 'bm25' ? bm25 : pipelineSpecFromParams(pipeline, params, meta.embedding!.modelKey, bm25);
  const resources = clusterResources(cluster, io, models, params);
  let retriever;
  try {
    retriever = await buildRetriever(spec, resources);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  return { retriever, spec, resources, runtime: { node: process.version }, environment: { host: nodeHostEnvironment() } };
}

/** The embedding set a served cluster corpus offers (what the app's dense pipelines name). */
export function clusterEmbeddingSets(cluster: ClusterCorpus, servedId: string) {
  const embedding = cluster.store.meta.embedding;
  if (!embedding) return [];
  const now = Date.now();
  return [
    {
      corpusId: servedId,
      modelKey: embeddingModelKey(embedding.model),
      model: embedding.model,
      source: { location: 'path' as const, modelId: embedding.model.modelId, parentPath: '' },
      maxTokens: 0,
      chunkRows: 0,
      tokens: false,
      totalRows: cluster.corpus.documentCount,
      rowsDone: cluster.corpus.documentCount,
      lastId: null,
      complete: true,
      device: 'opensearch',
      bytes: 0,
      createdAt: now,
      updatedAt: now,
    },
  ];
}
