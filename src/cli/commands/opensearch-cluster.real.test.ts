// npm run test:real: a 2-node OpenSearch cluster on this machine (npm run opensearch -- start --nodes 2), a 2-shard
// index spread over both nodes, and the same rankings as a 1-shard index and as the local run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenSearchClient, parseRunJson, type RunRecord } from '../../core/index.ts';
import { startOpenSearch, stopOpenSearch } from '../../../scripts/opensearch/opensearch.mjs';
import { captureIo } from '../../test-support/capture-io.ts';
import { ensureBundledTinyModel } from '../../test-support/tiny-model.ts';
import { main } from '../main.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = 'sample-data/meridian';
const model = 'public/models/tiny-bert';
const PORT = Number(process.env.DSW_OPENSEARCH_CLUSTER_PORT ?? 9200);
let url = '';
let startedHere = false;
let tmp = '';

async function dsw(...args: string[]) {
  const io = captureIo(root);
  const code = await main(args, io);
  expect(io.stderr).not.toMatch(/^dsw \w+:/m);
  expect(code).toBe(0);
  return io;
}

async function run(...source: string[]): Promise<RunRecord> {
  const file = path.join(tmp, `run-${source.join('-').replace(/[^a-z0-9-]/gi, '')}.json`);
  await dsw('run', ...source, '--top-k', '100', '--save-json', file);
  return parseRunJson(fs.readFileSync(file, 'utf8'));
}

const top10 = (record: RunRecord) => Object.fromEntries(record.rankings!.map((r) => [r.queryId, r.docIds.slice(0, 10)]));

describe('a 2-node OpenSearch cluster', () => {
  beforeAll(async () => {
    ensureBundledTinyModel();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-opensearch-cluster-'));
    const started = await startOpenSearch({ nodes: 2, port: PORT });
    url = started.url;
    startedHere = !started.reused;
  });
  afterAll(async () => {
    if (startedHere) await stopOpenSearch({ port: PORT });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('spreads a 2-shard index over both nodes and ranks as a 1-shard index and the local run do', async () => {
    const client = new OpenSearchClient({ url });
    const nodes = await client.request<unknown[]>('GET', '/_cat/nodes?format=json');
    expect(nodes).toHaveLength(2);
    await dsw('index', '--dataset', dataset, '--opensearch', url, '--index', 'dsw-real-2shards', '--shards', '2', '--model', model, '--replace');
    await dsw('index', '--dataset', dataset, '--opensearch', url, '--index', 'dsw-real-1shard', '--model', model, '--replace');
    const shards = await client.request<{ node: string; prirep: string }[]>('GET', '/_cat/shards/dsw-real-2shards?format=json');
    expect(new Set(shards.filter((s) => s.prirep === 'p').map((s) => s.node)).size).toBe(2);
    const two = await run('--opensearch', url, '--index', 'dsw-real-2shards');
    const one = await run('--opensearch', url, '--index', 'dsw-real-1shard');
    expect(top10(two)).toEqual(top10(one));
    const local = await run('--dataset', dataset);
    expect(Math.abs(two.metrics!.aggregate['nDCG@10']! - local.metrics!.aggregate['nDCG@10']!)).toBeLessThan(0.005);
    const gqr = async (...source: string[]) => (await run(...source, '--pipeline', 'gqr', '--model', model)).metrics!.aggregate['nDCG@10']!;
    expect(Math.abs((await gqr('--opensearch', url, '--index', 'dsw-real-2shards')) - (await gqr('--dataset', dataset)))).toBeLessThan(0.005);
    await client.request('DELETE', '/dsw-real-2shards,dsw-real-2shards__dsw,dsw-real-1shard,dsw-real-1shard__dsw');
  });
});
