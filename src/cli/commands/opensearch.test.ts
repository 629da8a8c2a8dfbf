// The sample corpus indexed into a real OpenSearch node (scripts/opensearch/vitest-opensearch.ts starts one, or
// DSW_OPENSEARCH_URL names it) and searched through the CLI beside the same runs on the local dataset.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Analyzer, indexIntoOpenSearch, OKAPI_BM25, OpenSearchClient, OpenSearchCorpusStore, openSearchResources, parseRunJson, type RunRecord } from '../../core/index.ts';
import { captureIo } from '../../test-support/capture-io.ts';
import { OpenAiTestServer, type RecordedRequest } from '../../test-support/openai-test-server.ts';
import { ensureBundledTinyModel } from '../../test-support/tiny-model.ts';
import { main } from '../main.ts';
import { directorySources } from '../node-sources.ts';
import { loadDataset } from '../load-dataset.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = 'sample-data/meridian';
const model = 'public/models/tiny-bert';
const url = inject('opensearchUrl');
// Names of this file's indexes; each test run replaces them.
const ONE_SHARD = 'dsw-test-meridian-1';
const TWO_SHARDS = 'dsw-test-meridian-2';
let tmp: string;

if (!url) {
  process.stderr.write('\n*** OpenSearch tests SKIPPED: no node (DSW_OPENSEARCH=off) ***\n\n');
}

async function dsw(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo(root);
  const code = await main(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

async function index(name: string, ...extra: string[]): Promise<void> {
  const result = await dsw('index', '--dataset', dataset, '--opensearch', url, '--index', name, '--model', model, '--replace', ...extra);
  expect(result.stderr).not.toMatch(/failed|refused/i);
  expect(result.code).toBe(0);
}

const runs = new Map<string, RunRecord>();
/** A saved run of `pipeline` on the local dataset or on an index (cached: several tests compare the same runs). */
async function run(where: 'local' | string, pipeline: string, ...extra: string[]): Promise<RunRecord> {
  const key = [where, pipeline, ...extra].join(' ');
  if (!runs.has(key)) {
    const file = path.join(tmp, `run-${runs.size}.json`);
    const source = where === 'local' ? ['--dataset', dataset] : ['--opensearch', url, '--index', where];
    const result = await dsw('run', ...source, '--pipeline', pipeline, ...(pipeline === 'bm25' ? [] : ['--model', model]), '--top-k', '100', '--save-json', file, ...extra);
    expect(result.stderr).not.toMatch(/dsw run:/);
    expect(result.code).toBe(0);
    runs.set(key, parseRunJson(fs.readFileSync(file, 'utf8')));
  }
  return runs.get(key)!;
}

const ndcg = (record: RunRecord) => record.metrics!.aggregate['nDCG@10']!;
const top10 = (record: RunRecord) => Object.fromEntries(record.rankings!.map((r) => [r.queryId, r.docIds.slice(0, 10)]));

describe.skipIf(!url)('an OpenSearch corpus (real node)', () => {
  beforeAll(async () => {
    ensureBundledTinyModel();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-opensearch-'));
    await index(ONE_SHARD);
    await index(TWO_SHARDS, '--shards', '2');
  }, 180_000);
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('holds the corpus with its queries and qrels, the same checksum as a local load', async () => {
    const client = new OpenSearchClient({ url });
    const count = await client.request<{ count: number }>('GET', `/${ONE_SHARD}/_count`);
    expect(count.count).toBe(168);
    const local = await run('local', 'bm25');
    const cluster = await run(ONE_SHARD, 'bm25');
    expect(cluster.metrics!.queryCount).toBe(local.metrics!.queryCount);
    const stored = await OpenSearchCorpusStore.open(client, ONE_SHARD);
    const loaded = await loadDataset(dataset, captureIo(root));
    expect(stored.record.checksum).toBe(loaded.corpus.checksum);
    expect(await stored.getQrels(ONE_SHARD)).toEqual(await loaded.store.getQrels(loaded.corpus.id));
    expect(await stored.getQueries(ONE_SHARD)).toEqual(await loaded.store.getQueries(loaded.corpus.id));
    expect((await stored.getDocuments(ONE_SHARD, ['m001']))[0]).toEqual((await loaded.store.getDocuments(loaded.corpus.id, ['m001']))[0]);
    expect(cluster.config).toMatchObject({ engine: 'opensearch', index: ONE_SHARD, shards: 1, searchType: 'dfs_query_then_fetch' });
  }, 120_000);

  it("the index's analyzer makes the workbench's terms from every text of the sample corpus and some hostile words", async () => {
    const client = new OpenSearchClient({ url });
    const loaded = await loadDataset(dataset, captureIo(root));
    const docs = await loaded.store.listDocuments(loaded.corpus.id, { limit: 1000 });
    const texts = [...docs.map((d) => (d.title ? `${d.title}\n${d.text}` : d.text)), "Harrow's 3.5 U.S. running—dogs 東京 café naïve «quoted» e-mail"];
    const analyzer = new Analyzer(loaded.corpus.analyzer);
    for (const text of texts) {
      const analyzed = await client.request<{ tokens: { token: string }[] }>('POST', `/${ONE_SHARD}/_analyze`, { analyzer: 'dsw_text', text });
      expect(analyzed.tokens.map((t) => t.token)).toEqual(analyzer.terms(text));
    }
  }, 120_000);

  it('BM25 nDCG@10 is within 0.005 of the local run', async () => {
    const local = ndcg(await run('local', 'bm25'));
    const cluster = ndcg(await run(ONE_SHARD, 'bm25'));
    expect(local).toBeGreaterThan(0.5);
    expect(Math.abs(cluster - local)).toBeLessThan(0.005);
  }, 120_000);

  it('exact dense nDCG@10 is within 0.002 of the local run (the same encoder, stored float vectors)', async () => {
    const local = await run('local', 'dense');
    const cluster = await run(ONE_SHARD, 'dense');
    expect(Math.abs(ndcg(cluster) - ndcg(local))).toBeLessThan(0.002);
    expect(cluster.config).toMatchObject({ knn: { method: 'exact' } });
  }, 180_000);

  it('GQR nDCG@10 is within 0.005 of the local run (pooled vectors fetched by mget)', async () => {
    const local = await run('local', 'gqr');
    const cluster = await run(ONE_SHARD, 'gqr');
    expect(Math.abs(ndcg(cluster) - ndcg(local))).toBeLessThan(0.005);
    // Every query refined in the embedding space: each pooled document's vector came back from the cluster.
    expect(cluster.config).toMatchObject({ pathsTaken: { single: 54, 'score-space': 0 } });
  }, 300_000);

  it('a 1-shard and a 2-shard index give the same top-10 (BM25 and dense)', async () => {
    expect(top10(await run(TWO_SHARDS, 'bm25'))).toEqual(top10(await run(ONE_SHARD, 'bm25')));
    expect(top10(await run(TWO_SHARDS, 'dense'))).toEqual(top10(await run(ONE_SHARD, 'dense')));
  }, 300_000);

  it('HNSW is selectable and its parameters are saved with the run', async () => {
    const hnsw = await run(ONE_SHARD, 'dense', '--hnsw-ef-search', '200');
    expect(hnsw.config).toMatchObject({ knn: { method: 'hnsw', m: 16, efConstruction: 100, efSearch: 200 } });
    // 168 vectors and ef_search 200: the graph search visits every document, so it agrees with exact scoring.
    expect(Math.abs(ndcg(hnsw) - ndcg(await run(ONE_SHARD, 'dense')))).toBeLessThan(0.002);
  }, 180_000);

  it('k1 and b are index settings: a pipeline asking others is refused, --set-bm25 changes them in place', async () => {
    const refused = await dsw('search', '--opensearch', url, '--index', TWO_SHARDS, '--query', 'salt marsh', '--param', 'k1=1.2', '--param', 'b=0.75');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/k1=0\.9, b=0\.4.*--set-bm25/s);
    const set = await dsw('index', '--opensearch', url, '--index', TWO_SHARDS, '--set-bm25', 'k1=1.2,b=0.75');
    expect(set.code).toBe(0);
    const local = ndcg(await run('local', 'bm25', '--param', 'k1=1.2', '--param', 'b=0.75'));
    const cluster = ndcg(await run(TWO_SHARDS, 'bm25', '--param', 'k1=1.2', '--param', 'b=0.75'));
    expect(Math.abs(cluster - local)).toBeLessThan(0.005);
    expect(ndcg(await run(TWO_SHARDS, 'bm25', '--param', 'k1=1.2', '--param', 'b=0.75'))).not.toBe(ndcg(await run(ONE_SHARD, 'bm25')));
  }, 180_000);

  it('scores a given pool of ids as the unfiltered query does (an ids filter with the query); ids matching no term are absent', async () => {
    const client = new OpenSearchClient({ url });
    const store = await OpenSearchCorpusStore.open(client, TWO_SHARDS);
    const bm25 = await openSearchResources(client, TWO_SHARDS, store.meta).retriever!({ kind: 'bm25', params: { ...OKAPI_BM25, ...store.meta.bm25 } });
    const text = 'salt marsh harbour trade';
    const top = await bm25.search(text, 30);
    const pool = [top[3]!.id, top[17]!.id, top[29]!.id, 'm999-not-a-document'];
    // OpenSearchBm25Retriever is not on the core's door; the retriever built for a bm25 spec is one.
    const pooled = bm25 as unknown as { scoresFor(t: string, ids: string[]): Promise<{ id: string; score: number }[]> };
    const scored = await pooled.scoresFor(text, pool);
    expect(new Map(scored.map((h) => [h.id, h.score]))).toEqual(new Map([top[3]!, top[17]!, top[29]!].map((h) => [h.id, h.score])));
    const noTerm = (await store.listDocuments(TWO_SHARDS, { limit: 200 })).find((d) => !/salt|marsh|harbour|trade/i.test(`${d.title} ${d.text}`));
    expect(noTerm).toBeDefined();
    expect(await pooled.scoresFor(text, [noTerm!.id])).toEqual([]);
  }, 60_000);

  it('dsw hds and dsw sweep on the cluster corpus retrieve and score as on the local dataset', async () => {
    const Q = (q: string) => `<|begin search queries|>${q}<|end search queries|>`;
    const turnOf = (request: RecordedRequest) => Number(/Turn: (\d+)\//.exec(JSON.stringify(request.body))?.[1] ?? 0);
    const llm = new OpenAiTestServer({
      respond: (request) => ({ content: turnOf(request) === 1 ? Q('who designed Harrow Point Light; Harrow Point Light engineer') : 'So the answer is \\boxed{Margery Fennick}' }),
    });
    const baseUrl = await llm.start();
    try {
      const question = 'Who founded the college attended by the engineer who designed the Harrow Point lighthouse?';
      const hds = async (...source: string[]) => {
        const out = path.join(tmp, `hds-${source.length}.json`);
        const result = await dsw('hds', ...source, '--question', question, '--base-url', baseUrl, '--model', 'm', '--out', out);
        expect(result.stderr).not.toMatch(/dsw hds:/);
        expect(result.code).toBe(0);
        return (JSON.parse(fs.readFileSync(out, 'utf8')) as { runs: { run: { retrievedIds: string[]; answer: string } }[] }).runs[0]!.run;
      };
      const local = await hds('--dataset', dataset);
      const cluster = await hds('--opensearch', url, '--index', ONE_SHARD);
      expect(cluster.answer).toBe('Margery Fennick');
      expect(cluster.retrievedIds.length).toBeGreaterThan(0);
      expect(cluster.retrievedIds).toEqual(local.retrievedIds);
    } finally {
      await llm.close();
    }
    const sweep = async (...source: string[]) => {
      const result = await dsw('sweep', ...source, '--model', model, '--grid', 'mixtureAlpha=0,1', '--json');
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as { points: { measures: Record<string, number> }[] };
    };
    const [local, cluster] = [await sweep('--dataset', dataset), await sweep('--opensearch', url, '--index', ONE_SHARD)];
    expect(cluster.points).toHaveLength(2);
    cluster.points.forEach((point, i) => expect(Math.abs(point.measures['nDCG@10']! - local.points[i]!.measures['nDCG@10']!)).toBeLessThan(0.005));
  }, 240_000);

  it('dsw index refuses another corpus without --replace, and an interrupted index continues where it stopped', async () => {
    const name = 'dsw-test-resume';
    const client = new OpenSearchClient({ url });
    const sources = await directorySources(path.join(root, dataset));
    const controller = new AbortController();
    const options = { index: name, name: 'meridian', fingerprint: 'sample-v1', replace: true, batchSize: 50 };
    await expect(
      indexIntoOpenSearch(sources, options, client, (p) => p.documentsDone >= 100 && controller.abort(), controller.signal),
    ).rejects.toThrow();
    const meta = (await client.mget<{ status: string; documentsDone: number }>(`${name}__dsw`, ['corpus']))[0]!;
    expect(meta).toMatchObject({ status: 'indexing', documentsDone: 100 });
    const resumed = await indexIntoOpenSearch(sources, { ...options, replace: false }, client);
    expect(resumed.outcome).toBe('resumed');
    expect(resumed.resumedAt).toBe(100);
    expect(resumed.meta.record.documentCount).toBe(168);
    expect((await client.request<{ count: number }>('GET', `/${name}/_count`)).count).toBe(168);
    const refused = await dsw('index', '--dataset', 'e2e/fixtures/tiny-beir', '--opensearch', url, '--index', name);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/already holds another corpus in "dsw-test-resume".*--replace/);
    await client.request('DELETE', `/${name},${name}__dsw`);
  }, 120_000);
});
