// npm run bench -- opensearch: a 2-node OpenSearch cluster on this machine (started here unless one runs on
// DSW_OPENSEARCH_PORT, default 9200): indexing docs/s, disk and heap for generated passages; BM25 p50/p99 through the
// cluster beside the workbench's compact kernel on the same corpus; nDCG@10 through the cluster beside the local
// run on npl and cranfield (when ../shared/data holds them). OPENSEARCH_BENCH_DOCS sets the size (default 20,000:
// the whole section stays within a few minutes on 2 cores; docs/opensearch.md extrapolates to 8.8M and 100M).
import path from 'node:path';
import {
  Bm25Retriever,
  buildQrelsMap,
  evaluateRun,
  indexIntoOpenSearch,
  loadCorpus,
  MemoryCorpusStore,
  OKAPI_BM25,
  OpenSearchClient,
  OpenSearchCorpusStore,
  openSearchResources,
  runQueries,
  type Retriever,
} from '../src/core/index.ts';
import { directorySources } from '../src/cli/node-sources.ts';
import { startOpenSearch, stopOpenSearch } from '../scripts/opensearch/opensearch.mjs';
import { heading, sharedDataset } from './harness.ts';
import { corpusDir, generateCorpus } from './scale/generate-corpus.ts';

const QUERIES = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function latencies(retriever: Retriever, texts: string[]): Promise<{ p50: number; p99: number }> {
  for (const text of texts.slice(0, 20)) await retriever.search(text, 10); // warm-up
  const times: number[] = [];
  for (const text of texts) {
    const start = performance.now();
    await retriever.search(text, 10);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function indexDataset(client: OpenSearchClient, dir: string, index: string, shards: number) {
  const sources = await directorySources(dir);
  const started = performance.now();
  const result = await indexIntoOpenSearch(sources, { index, name: path.basename(dir), fingerprint: `bench ${dir}`, shards, replace: true, batchSize: 2000 }, client);
  return { seconds: (performance.now() - started) / 1000, store: new OpenSearchCorpusStore(client, index, result.meta) };
}

async function localIndex(dir: string) {
  const store = new MemoryCorpusStore();
  const { corpus, index } = await loadCorpus(await directorySources(dir), { name: path.basename(dir) }, store);
  return { store, corpus, index };
}

export async function benchOpenSearch(): Promise<void> {
  const port = Number(process.env.DSW_OPENSEARCH_PORT ?? 9200);
  const docs = Number(process.env.OPENSEARCH_BENCH_DOCS ?? 20_000);
  heading(`OpenSearch: a 2-node cluster on this machine, ${docs.toLocaleString('en')} generated passages`);
  const started = await startOpenSearch({ nodes: 2, port });
  console.log(`cluster ${started.url}: ${started.reused ? 'already running' : `up in ${started.seconds.toFixed(0)} s`}`);
  const client = new OpenSearchClient({ url: started.url });
  try {
    const corpus = await generateCorpus(docs, QUERIES, corpusDir(docs));
    const index = `dsw-bench-${docs}`;
    const { seconds, store } = await indexDataset(client, corpus.dir, index, 2);
    await client.request('POST', `/${index}/_forcemerge?max_num_segments=1`);
    const [stats] = await client.request<{ 'store.size': string; 'pri.store.size': string }[]>('GET', `/_cat/indices/${index}?format=json&bytes=b`);
    const nodes = await client.request<{ nodes: Record<string, { name: string; jvm: { mem: { heap_used_in_bytes: number; heap_max_in_bytes: number } }; process: { mem: { total_virtual_in_bytes: number } } }> }>(
      'GET',
      '/_nodes/stats/jvm,process',
    );
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    console.log(`indexing (2 shards, bulk 2,000, no vectors)    ${(docs / seconds).toFixed(0)} docs/s (${seconds.toFixed(1)} s)`);
    console.log(`disk after force-merge                          ${mb(Number(stats!['store.size']))} (${(Number(stats!['store.size']) / docs).toFixed(0)} bytes a passage)`);
    for (const node of Object.values(nodes.nodes)) console.log(`heap ${node.name.padEnd(43)}${mb(node.jvm.mem.heap_used_in_bytes)} used of ${mb(node.jvm.mem.heap_max_in_bytes)}`);

    const local = await localIndex(corpus.dir);
    const queries = await local.store.getQueries(local.corpus.id);
    const texts = queries.map((q) => q.text);
    const cluster = await openSearchResources(client, index, store.meta).retriever!({ kind: 'bm25', params: { ...OKAPI_BM25 } });
    const kernel = new Bm25Retriever(local.index, OKAPI_BM25);
    const c = await latencies(cluster, texts);
    const k = await latencies(kernel, texts);
    console.log(`BM25 top-10 p50 / p99, cluster (HTTP, dfs)     ${c.p50.toFixed(1)} / ${c.p99.toFixed(1)} ms`);
    console.log(`BM25 top-10 p50 / p99, compact kernel (Node)   ${k.p50.toFixed(2)} / ${k.p99.toFixed(2)} ms  (cluster ÷ kernel p50: ${(c.p50 / k.p50).toFixed(0)}×)`);
    await client.request('DELETE', `/${index},${index}__dsw`);

    for (const name of ['npl', 'cranfield']) {
      const dir = sharedDataset(name);
      if (!dir) {
        console.log(`${name}: ../shared/data/${name} not found, skipped`);
        continue;
      }
      const { store: clusterStore } = await indexDataset(client, dir, `dsw-bench-${name}`, 2);
      const localSet = await localIndex(dir);
      const qs = await localSet.store.getQueries(localSet.corpus.id);
      const qrels = buildQrelsMap(await localSet.store.getQrels(localSet.corpus.id));
      const onCluster = await openSearchResources(client, `dsw-bench-${name}`, clusterStore.meta).retriever!({ kind: 'bm25', params: { ...OKAPI_BM25 } });
      const ndcg = async (retriever: Retriever) => evaluateRun(qrels, await runQueries(retriever, qs, 100), ['nDCG@10']).aggregate['nDCG@10']!;
      const [a, b] = [await ndcg(onCluster), await ndcg(new Bm25Retriever(localSet.index, OKAPI_BM25))];
      console.log(`${name} BM25 nDCG@10 cluster / local               ${a.toFixed(4)} / ${b.toFixed(4)} (difference ${Math.abs(a - b).toFixed(4)})`);
      await client.request('DELETE', `/dsw-bench-${name},dsw-bench-${name}__dsw`);
    }
  } finally {
    if (!started.reused) await stopOpenSearch({ port });
  }
}
