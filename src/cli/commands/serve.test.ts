import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildRetriever,
  createServeHandler,
  DEFAULT_GQR_CONFIG,
  MemoryCorpusStore,
  MemoryRunStore,
  OKAPI_BM25,
  preparedFromJson,
  RemoteAwareCorpusStore,
  RemoteRetriever,
  remoteCorpusRecord,
  routedResources,
  runQuerySet,
  WorkbenchServerClient,
  type PipelineSpec,
  type Retriever,
  type ServeResponse,
} from '../../core/index.ts';
import { captureIo } from '../../test-support/capture-io.ts';
import { main } from '../main.ts';
import { startServer, type RunningServer } from './serve.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = path.join(root, 'sample-data/meridian');
const model = path.join(root, 'public/models/tiny-bert');
const bm25 = { kind: 'bm25', params: OKAPI_BM25 };
const APP = 'http://127.0.0.1:5207';

let server: RunningServer;
let guarded: RunningServer;

beforeAll(async () => {
  server = await startServer({ dataset, model, port: 0, host: '127.0.0.1', allowOrigins: [APP] }, captureIo(root));
  guarded = await startServer({ dataset, port: 0, host: '127.0.0.1', token: 's3cret-token', allowOrigins: ['*'] }, captureIo(root));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await guarded?.close();
});

const api = (s: RunningServer, p: string) => `${s.url}/api/v1${p}`;
const post = (s: RunningServer, p: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(api(s, p), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

async function ndjson(response: Response): Promise<Array<Record<string, unknown>>> {
  return (await response.text()).trim().split('\n').map((line) => JSON.parse(line));
}

describe('dsw serve over a loopback socket', () => {
  it('says what it serves: health, the corpus identity with its embedding set, queries and qrels', async () => {
    const health = await (await fetch(api(server, '/health'))).json();
    expect(health).toMatchObject({ ok: true, apiVersion: 1, corpora: ['meridian'] });
    const info = await (await fetch(api(server, '/corpora/meridian'))).json();
    expect(info).toMatchObject({ id: 'meridian', name: 'meridian', documentCount: 168, queryCount: 54 });
    expect(info.embeddingSets).toHaveLength(1);
    expect(info.embeddingSets[0]).toMatchObject({ complete: true, rowsDone: 168, corpusId: 'meridian' });
    const queries = await (await fetch(api(server, '/corpora/meridian/queries'))).json();
    expect(queries.find((q: { id: string }) => q.id === 'q01').text).toBe('lighthouse keeper rescues shipwrecked sailors in a storm');
    const qrels = await (await fetch(api(server, '/corpora/meridian/qrels'))).json();
    expect(qrels.length).toBeGreaterThan(30);
  });

  it('searches BM25 with documents and matched terms, the same ranking as dsw search', async () => {
    const response = await post(server, '/corpora/meridian/search', { spec: bm25, query: 'who built the Harrow Point light', k: 5 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.hits).toHaveLength(5);
    expect(body.hits[0].document.text.length).toBeGreaterThan(0);
    expect(body.hits[0].terms.length).toBeGreaterThan(0);
    expect(body.config).toMatchObject({ k1: 0.9, b: 0.4 });
    const io = captureIo(root);
    await main(['search', '--dataset', dataset, '--query', 'who built the Harrow Point light', '--top-k', '5', '--json'], io);
    const cli = JSON.parse(io.stdout) as { id: string; score: number }[];
    expect(body.hits.map((h: { id: string }) => h.id)).toEqual(cli.map((r) => r.id));
    expect(body.hits[0].score).toBeCloseTo(cli[0]!.score, 9);
  });

  it('searches dense and fetches documents by id (unknown ids as null)', async () => {
    const info = await (await fetch(api(server, '/corpora/meridian'))).json();
    const dense = { kind: 'dense', modelKey: info.embeddingSets[0].modelKey };
    const body = await (await post(server, '/corpora/meridian/search', { spec: dense, query: 'salt marsh', k: 3 })).json();
    expect(body.hits).toHaveLength(3);
    expect(body.hits[0].score).toBeLessThanOrEqual(1);
    const docs = await (await post(server, '/corpora/meridian/documents', { ids: [body.hits[0].id, 'no-such-doc'] })).json();
    expect(docs[0].id).toBe(body.hits[0].id);
    expect(docs[1]).toBeNull();
  });

  it('streams a query-set run as NDJSON: progress lines, then every ranking', async () => {
    const response = await post(server, '/corpora/meridian/run', { spec: bm25, k: 10 });
    expect(response.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = await ndjson(response);
    const last = lines.at(-1) as { type: string; result: { rankings: Record<string, unknown[]>; config: object } };
    expect(lines.slice(0, -1).every((l) => l.type === 'progress')).toBe(true);
    expect(lines.at(-2)).toMatchObject({ type: 'progress', done: 54, total: 54 });
    expect(last.type).toBe('result');
    expect(Object.keys(last.result.rankings)).toHaveLength(54);
    expect(last.result.rankings.q01).toHaveLength(10);
  });

  it('prepares GQR queries with the pool scores and embeddings of pooled documents', async () => {
    const info = await (await fetch(api(server, '/corpora/meridian'))).json();
    const spec = { kind: 'gqr', primary: { kind: 'dense', modelKey: info.embeddingSets[0].modelKey }, complementary: bm25, config: DEFAULT_GQR_CONFIG };
    const lines = await ndjson(await post(server, '/corpora/meridian/gqr/prepare', { spec, k: 5, queryIds: ['q01', 'q02'] }));
    const result = lines.at(-1)!.result as { prepared: Array<Parameters<typeof preparedFromJson>[0] & { queryId: string }> };
    expect(result.prepared.map((p) => p.queryId)).toEqual(['q01', 'q02']);
    const prepared = preparedFromJson(result.prepared[0]!);
    expect(prepared.input.primary).toHaveLength(10);
    expect(prepared.input.queryEmbedding).toBeInstanceOf(Float32Array);
    for (const doc of [...prepared.input.primary, ...prepared.input.complementary]) expect(prepared.input.candidateEmbeddings!.get(doc.id)).toBeInstanceOf(Float32Array);
  });

  it('refuses bad requests with a status, a code and words', async () => {
    expect(await errorOf(await post(server, '/corpora/nope/search', { spec: bm25, query: 'x' }))).toMatchObject({ status: 404, code: 'unknown-corpus', message: expect.stringContaining('"meridian"') });
    expect(await errorOf(await post(server, '/corpora/meridian/search', { spec: { kind: 'bm26' }, query: 'x' }))).toMatchObject({ status: 400, code: 'bad-spec', message: expect.stringContaining('bm26') });
    expect(await errorOf(await post(server, '/corpora/meridian/search', { spec: { kind: 'dense', modelKey: 'other' }, query: 'x' }))).toMatchObject({ status: 400, code: 'bad-spec', message: expect.stringContaining('no vectors for model key "other"') });
    expect(await errorOf(await post(server, '/corpora/meridian/search', { spec: { kind: 'bm25', params: { ...OKAPI_BM25, k1: -1 } }, query: 'x' }))).toMatchObject({ status: 400, code: 'bad-spec' });
    expect(await errorOf(await post(server, '/corpora/meridian/search', { spec: bm25, query: 'x', k: 5000 }))).toMatchObject({ status: 400, code: 'k-too-large', message: 'k 5000 is larger than this server allows (1000).' });
    expect(await errorOf(await post(server, '/corpora/meridian/search', { spec: bm25, query: 'x', k: 2.5 }))).toMatchObject({ status: 400, code: 'bad-request' });
    expect(await errorOf(await post(server, '/corpora/meridian/search', '{"spec": '))).toMatchObject({ status: 400, code: 'bad-json' });
    expect(await errorOf(await post(server, '/corpora/meridian/search', { spec: bm25, query: '  ' }))).toMatchObject({ status: 400, code: 'bad-request', message: 'Field "query" must be a non-empty string.' });
    expect(await errorOf(await fetch(api(server, '/corpora/meridian/search')))).toMatchObject({ status: 405, code: 'method-not-allowed' });
    expect(await errorOf(await fetch(`${server.url}/elsewhere`))).toMatchObject({ status: 404, code: 'not-found' });
    expect(await errorOf(await post(server, '/corpora/meridian/documents', { ids: 'd1' }))).toMatchObject({ status: 400, code: 'bad-request' });
    expect(await errorOf(await post(server, '/corpora/meridian/search', 'x'.repeat(1_100_000)))).toMatchObject({ status: 413, code: 'too-large' });
  });

  it('needs the token when started with one, and says which way it was wrong', async () => {
    expect(await errorOf(await fetch(api(guarded, '/health')))).toMatchObject({ status: 401, code: 'unauthorized', message: expect.stringContaining('needs a token') });
    expect(await errorOf(await fetch(api(guarded, '/health'), { headers: { authorization: 'Bearer wrong' } }))).toMatchObject({ status: 401, message: expect.stringContaining('refused') });
    expect((await fetch(api(guarded, '/health'), { headers: { authorization: 'Bearer s3cret-token' } })).status).toBe(200);
  });

  it('answers CORS for the allowed origin only', async () => {
    const preflight = await fetch(api(server, '/corpora/meridian/search'), { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const ok = await fetch(api(server, '/health'), { headers: { origin: APP } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    const other = await fetch(api(server, '/health'), { headers: { origin: 'http://evil.example' } });
    expect(await errorOf(other)).toMatchObject({ status: 403, code: 'origin-not-allowed' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps the vectors in the vector cache after embedding and reads them at the next start, with the same dense results', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-serve-vectors-'));
    const denseTop = async (s: RunningServer) => {
      const spec = { kind: 'dense', modelKey: s.corpus.info.embeddingSets[0]!.modelKey };
      return (await (await post(s, '/corpora/meridian/search', { spec, query: 'salt marsh', k: 5 })).json()).hits.map((h: { id: string; score: number }) => [h.id, h.score]);
    };
    try {
      const firstIo = captureIo(root);
      const first = await startServer({ dataset, model, port: 0, host: '127.0.0.1', allowOrigins: [], vectorCache: dir }, firstIo);
      const expected = await denseTop(first);
      await first.close();
      expect(firstIo.stderr).toContain('Embedded 168 documents');
      const secondIo = captureIo(root);
      const second = await startServer({ dataset, model, port: 0, host: '127.0.0.1', allowOrigins: [], vectorCache: dir }, secondIo);
      expect(await denseTop(second)).toEqual(expected);
      await second.close();
      expect(secondIo.stderr).toContain('Read 168 document vectors');
      expect(secondIo.stderr).not.toContain('Embedded 168 documents');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to bind beyond loopback without a token', async () => {
    const io = captureIo(root);
    expect(await main(['serve', '--dataset', dataset, '--host', '0.0.0.0', '--port', '0'], io)).toBe(2);
    expect(io.stderr).toContain('--token');
  });
});

describe('dsw serve --stream-documents', () => {
  it('answers with the same hits and documents as with documents in memory, from a spool removed on close', async () => {
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-serve-spool-'));
    const streamed = await startServer({ dataset, port: 0, host: '127.0.0.1', allowOrigins: [], streamDocuments: true, spoolDir }, captureIo(root));
    try {
      expect(fs.readdirSync(spoolDir)).toHaveLength(1);
      for (const query of ['who built the Harrow Point light', 'salt marsh tide', 'storm']) {
        const [inMemory, spooled] = await Promise.all(
          [server, streamed].map(async (s) => (await post(s, '/corpora/meridian/search', { spec: bm25, query, k: 10 })).json()),
        );
        expect(spooled.hits.length).toBeGreaterThan(0);
        expect(spooled.hits).toEqual(inMemory.hits);
      }
      const page = await (await fetch(api(server, '/corpora/meridian/documents?limit=1000'))).json();
      const ids = [...page.map((d: { id: string }) => d.id).reverse(), 'no-such-doc', page[0].id];
      const [inMemory, spooled] = await Promise.all(
        [server, streamed].map(async (s) => (await post(s, '/corpora/meridian/documents', { ids })).json()),
      );
      expect(spooled).toEqual(inMemory);
      expect(spooled.at(-2)).toBeNull();
      // Pages in load order, every document once.
      const listed = await (await fetch(api(streamed, '/corpora/meridian/documents?limit=1000'))).json();
      expect(listed.map((d: { id: string }) => d.id).sort()).toEqual(page.map((d: { id: string }) => d.id).sort());
    } finally {
      await streamed.close();
    }
    expect(fs.readdirSync(spoolDir)).toEqual([]);
    fs.rmSync(spoolDir, { recursive: true });
  });

  it('refuses --spool-dir without --stream-documents, and --model with it', async () => {
    const io = captureIo(root);
    expect(await main(['serve', '--dataset', dataset, '--port', '0', '--spool-dir', os.tmpdir()], io)).toBe(2);
    expect(io.stderr).toContain('--spool-dir is where --stream-documents keeps its spool file');
    const both = captureIo(root);
    expect(await main(['serve', '--dataset', dataset, '--port', '0', '--stream-documents', '--model', model], both)).toBe(2);
    expect(both.stderr).toContain('use one or the other');
  });
});

describe('the serve handler', () => {
  it('stops a streamed run when the client goes away', async () => {
    const store = new MemoryCorpusStore();
    let searched = 0;
    const slow: Retriever = {
      pipeline: 'slow',
      config: {},
      search: async (_text, _k, signal) => {
        searched++;
        await new Promise((r) => setTimeout(r, 20));
        signal?.throwIfAborted();
        return [];
      },
    };
    await store.beginCorpus({ id: 'c', name: 'c', createdAt: 0, status: 'ingesting', documentCount: 0, queryCount: 0, qrelCount: 0, questionCount: 0, analyzer: {} as never, sources: [], bytes: 0, issues: [], issueCount: 0 });
    await store.putBatch('c', { documents: [], queries: Array.from({ length: 100 }, (_, i) => ({ id: `q${i}`, text: 'x' })), qrels: [] });
    const handle = createServeHandler({
      corpora: [{ storeId: 'c', corpora: store, resources: { bm25Index: () => Promise.reject(new Error('none')), retriever: async () => slow }, info: { id: 'c' } as never }],
      allowOrigins: [],
    });
    const client = new AbortController();
    const response = (await handle({ method: 'POST', url: '/api/v1/corpora/c/run', headers: {}, body: JSON.stringify({ spec: bm25, k: 5 }), signal: client.signal })) as Extract<ServeResponse, { stream: unknown }>;
    const lines: string[] = [];
    for await (const line of response.stream) {
      lines.push(line);
      if (lines.length === 2) client.abort(new DOMException('gone', 'AbortError'));
    }
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'error', status: 499 });
    expect(searched).toBeLessThan(10);
  });
});

describe('a remote corpus through the core (what the app’s workers use)', () => {
  async function remoteStore(s: RunningServer, token?: string) {
    const client = new WorkbenchServerClient({ server: s.url, token });
    const local = new MemoryCorpusStore();
    const record = remoteCorpusRecord('local-ref', s.url, await client.corpus('meridian'));
    await local.beginCorpus(record);
    await local.commitCorpus(record.id, { index: undefined as never, documentCount: 168, queryCount: 54, qrelCount: record.qrelCount, questionCount: record.questionCount, issues: [], issueCount: 0 });
    return new RemoteAwareCorpusStore(local, async () => client);
  }

  it('runs the query-set use case on the server and scores it here, recording the server and the corpus there', async () => {
    const store = await remoteStore(server);
    const runs = new MemoryRunStore();
    const resources = routedResources('local-ref', store, () => {
      throw new Error('a remote corpus never uses local resources');
    });
    let progressed = 0;
    const { record } = await runQuerySet({ corpusId: 'local-ref', spec: bm25 as PipelineSpec, k: 10, name: 'remote' }, { corpora: store, resources, runs }, { onProgress: () => progressed++ });
    expect(progressed).toBeGreaterThan(0);
    expect(record.corpusId).toBe('local-ref');
    expect(record.config).toMatchObject({ server: server.url, serverCorpusId: 'meridian', k1: 0.9 });
    expect(record.metrics!.queryCount).toBeGreaterThan(20);
    expect((await runs.listRuns('local-ref')).map((r) => r.name)).toEqual(['remote']);
    const docs = await store.getDocuments('local-ref', ['m033', 'nope']);
    expect(docs[0]!.text).toContain('Harrow Point Light');
    expect(docs[1]).toBeUndefined();
  });

  it('prepares GQR on the server for local re-ranking', async () => {
    const store = await remoteStore(server);
    const info = await new WorkbenchServerClient({ server: server.url }).corpus('meridian');
    const spec = { kind: 'gqr', primary: { kind: 'dense', modelKey: info.embeddingSets[0]!.modelKey }, complementary: bm25, config: DEFAULT_GQR_CONFIG } as PipelineSpec;
    const retriever = await buildRetriever(spec, routedResources('local-ref', store, () => ({ bm25Index: () => Promise.reject(new Error('local')) })));
    expect(retriever).toBeInstanceOf(RemoteRetriever);
    const prepared = await (retriever as RemoteRetriever).prepare('salt marsh', 5);
    expect(prepared.input.queryEmbedding).toBeInstanceOf(Float32Array);
    expect((await (retriever as RemoteRetriever).prepareQueries(['q03'], 5)).map((p) => p.queryId)).toEqual(['q03']);
  });

  it('says in words when the server is down or the token is wrong', async () => {
    await expect(new WorkbenchServerClient({ server: 'http://127.0.0.1:9' }).health()).rejects.toThrow(/Cannot reach the workbench server at http:\/\/127\.0\.0\.1:9 .*dsw serve/);
    await expect(new WorkbenchServerClient({ server: guarded.url, token: 'wrong' }).health()).rejects.toThrow(/refused the request: The token was refused.*Check the token/);
    expect((await new WorkbenchServerClient({ server: `${guarded.url}/api/v1/`, token: 's3cret-token' }).health()).ok).toBe(true);
  });
});
