// `dsw serve` as a server left running: hostile and careless clients over real loopback sockets.
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServeHandler, hostProblem, MemoryCorpusStore, OKAPI_BM25, type Retriever, type ServeResponse } from '../../core/index.ts';
import { captureIo, type CapturedIo } from '../../test-support/capture-io.ts';
import { main } from '../main.ts';
import { startServer, type RunningServer } from './serve.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = path.join(root, 'sample-data/meridian');
const bm25 = { kind: 'bm25', params: OKAPI_BM25 };
const TOKEN = 'hardening-s3cret';

let open: RunningServer;
let guarded: RunningServer;
let guardedIo: CapturedIo;
let openIo: CapturedIo;

beforeAll(async () => {
  openIo = captureIo(root);
  open = await startServer({ dataset, port: 0, host: '127.0.0.1', allowOrigins: [], allowHosts: ['workbench.example'] }, openIo);
  guardedIo = captureIo(root);
  guarded = await startServer({ dataset, port: 0, host: '127.0.0.1', token: TOKEN, allowOrigins: [], headersTimeoutMs: 300, requestTimeoutMs: 600 }, guardedIo);
}, 60_000);

afterAll(async () => {
  await open?.close();
  await guarded?.close();
});

const portOf = (s: RunningServer) => Number(new URL(s.url).port);

/** A request with any headers (Host included), over node:http. */
function request(s: RunningServer, p: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: portOf(s), path: `/api/v1${p}`, method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Writes raw bytes on a socket and returns everything the server sends before it closes the connection. */
function rawExchange(s: RunningServer, bytes: string, { closeAfterWrite = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(portOf(s), '127.0.0.1', () => {
      socket.write(bytes);
      if (closeAfterWrite) socket.end();
    });
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (got += chunk));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

const jsonBodyOf = (raw: string) => JSON.parse(/\{"error".*\}\}/.exec(raw)![0]) as { error: { code: string; message: string } };

describe('dsw serve stays up', () => {
  it('survives a client that promises a body and hangs up after one byte (issue case 1)', async () => {
    for (const s of [open, guarded]) {
      const answer = await rawExchange(
        s,
        `POST /api/v1/corpora/meridian/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
        { closeAfterWrite: true },
      );
      expect(answer).not.toMatch(/^HTTP\/1\.1 2/);
      const health = await request(s, '/health', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(health.status).toBe(200);
    }
    const search = await request(open, '/corpora/meridian/search', { method: 'POST', body: JSON.stringify({ spec: bm25, query: 'storm', k: 2 }) });
    expect(JSON.parse(search.body).hits).toHaveLength(2);
  });

  it('checks the token before reading the body: a stranger is refused while the body is still unsent', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(portOf(guarded), '127.0.0.1', () => {
        socket.write('POST /api/v1/corpora/meridian/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"spec":');
      });
      let got = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        got += chunk;
        if (got.includes('}}')) {
          socket.destroy();
          resolve(got);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(jsonBodyOf(answer).error.code).toBe('unauthorized');
  });

  it('answers a request whose headers never finish with 408 and a JSON error, and stays up', async () => {
    const answer = await rawExchange(guarded, 'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(jsonBodyOf(answer).error).toMatchObject({ code: 'timeout' });
    expect((await request(guarded, '/health', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('answers a body that trickles past the request time limit with 408 and a JSON error, and stays up', async () => {
    const answer = await rawExchange(
      guarded,
      `POST /api/v1/corpora/meridian/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 100\r\n\r\n{"spec"`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(jsonBodyOf(answer).error.code).toBe('timeout');
    expect((await request(guarded, '/health', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('answers bytes that are not HTTP with 400 and a JSON error', async () => {
    const answer = await rawExchange(open, 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(jsonBodyOf(answer).error.code).toBe('bad-request');
  });

  it('logs one JSON line per request, with method, path, status and ms, never the token, query string or body', async () => {
    await request(guarded, '/corpora/meridian/search', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ spec: bm25, query: 'secret-query-words', k: 1 }),
    });
    await request(guarded, '/corpora/meridian/documents?after=private-doc-id&limit=2', { headers: { authorization: `Bearer ${TOKEN}` } });
    const lines = guardedIo.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/v1/corpora/meridian/search', status: 200, ms: expect.any(Number) }));
    expect(lines).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/v1/corpora/meridian/documents', status: 200 }));
    expect(guardedIo.stderr).not.toContain(TOKEN);
    expect(guardedIo.stderr).not.toContain('secret-query-words');
    expect(guardedIo.stderr).not.toContain('private-doc-id');
  });

  it('answers 400 with words for BM25 parameters that are not finite or would overflow the scores (issue case 7)', async () => {
    for (const k1 of [1e308, '1e308', -0.5]) {
      const answer = await request(open, '/corpora/meridian/search', { method: 'POST', body: JSON.stringify({ spec: { kind: 'bm25', params: { ...OKAPI_BM25, k1 } }, query: 'storm' }) });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'bad-spec', message: expect.stringContaining('BM25 parameter k1 must be a number from 0 to 1000') });
    }
    const largest = await request(open, '/corpora/meridian/search', { method: 'POST', body: JSON.stringify({ spec: { kind: 'bm25', params: { ...OKAPI_BM25, k1: 1000, d: 1000 } }, query: 'storm' }) });
    expect(JSON.parse(largest.body).hits.every((h: { score: unknown }) => typeof h.score === 'number' && Number.isFinite(h.score))).toBe(true);
  });

  it('answers 413 with the limit when more than 1000 ids are asked (issue case 12)', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `d${i}`);
    const answer = await request(open, '/corpora/meridian/documents', { method: 'POST', body: JSON.stringify({ ids }) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toEqual({ code: 'too-large', message: 'At most 1000 documents per request; got 1001.' });
  });
});

describe('the Host rule against DNS rebinding (issue case 2)', () => {
  it('refuses a request addressed to a name that is not the server’s, with words and a code', async () => {
    const rebound = await request(open, '/corpora/meridian/qrels', { headers: { host: `attacker.example:${portOf(open)}` } });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error).toMatchObject({ code: 'host-not-allowed', message: expect.stringContaining('--allow-host attacker.example') });
    expect(rebound.body).not.toContain('q01');
  });

  it('serves loopback names, IP addresses and the names it was started with', async () => {
    for (const host of ['127.0.0.1', `127.0.0.1:${portOf(open)}`, 'localhost:1', `[::1]:${portOf(open)}`, 'app.localhost', 'workbench.example', 'WORKBENCH.example:443', '10.0.0.7:8790']) {
      expect((await request(open, '/health', { headers: { host } })).status, host).toBe(200);
    }
  });

  it('is one pure rule', () => {
    expect(hostProblem(undefined, [])).toBeNull();
    expect(hostProblem('evil.example', ['*'])).toBeNull();
    expect(hostProblem('localhost.evil.example', [])).toMatch(/not served under the name "localhost.evil.example"/);
    expect(hostProblem('127.0.0.1.nip.io', [])).toMatch(/--allow-host 127.0.0.1.nip.io/);
    expect(hostProblem('a b', [])).toMatch(/not a host name/);
    expect(hostProblem('999.1.1.1', [])).not.toBeNull();
  });

  it('takes --allow-host and refuses a bad --max-streams with its range', async () => {
    const io = captureIo(root);
    expect(await main(['serve', '--dataset', dataset, '--max-streams', '0'], io)).toBe(2);
    expect(io.stderr).toContain('--max-streams must be a whole number from 1 to 256, got "0"');
  });
});

describe('GET /health while the corpus loads', () => {
  it('says it is not ready and other endpoints answer 503 not-ready, then ready with the corpus', async () => {
    const seen: Array<{ status: number; body: string }> = [];
    const s = await startServer(
      {
        dataset,
        port: 0,
        host: '127.0.0.1',
        allowOrigins: [],
        onListening: async (url) => {
          for (const p of ['/health', '/corpora']) seen.push(await new Promise((resolve) => http.get(`${url}/api/v1${p}`, (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          })));
        },
      },
      captureIo(root),
    );
    try {
      expect(seen[0]!.status).toBe(200);
      expect(JSON.parse(seen[0]!.body)).toMatchObject({ ok: true, ready: false, status: 'loading the corpus', corpora: [] });
      expect(seen[1]!.status).toBe(503);
      expect(JSON.parse(seen[1]!.body).error).toMatchObject({ code: 'not-ready', message: expect.stringContaining('/health') });
      expect(JSON.parse((await request(s, '/health')).body)).toMatchObject({ ready: true, status: 'ready', corpora: ['meridian'] });
    } finally {
      await s.close();
    }
  });
});

describe('the concurrent stream limit', () => {
  it('answers 429 busy past the limit and frees the slot when a stream ends', async () => {
    const store = new MemoryCorpusStore();
    const slow: Retriever = { pipeline: 'slow', config: {}, search: async () => [] };
    await store.beginCorpus({ id: 'c', name: 'c', createdAt: 0, status: 'ingesting', documentCount: 0, queryCount: 0, qrelCount: 0, questionCount: 0, analyzer: {} as never, sources: [], bytes: 0, issues: [], issueCount: 0 });
    await store.putBatch('c', { documents: [], queries: [{ id: 'q1', text: 'x' }], qrels: [] });
    const handle = createServeHandler({
      corpora: [{ storeId: 'c', corpora: store, resources: { bm25Index: () => Promise.reject(new Error('none')), retriever: async () => slow }, info: { id: 'c' } as never }],
      allowOrigins: [],
      maxStreams: 1,
    });
    const run = () => handle({ method: 'POST', url: '/api/v1/corpora/c/run', headers: {}, body: JSON.stringify({ spec: bm25, k: 5 }), signal: new AbortController().signal });
    const first = (await run()) as Extract<ServeResponse, { stream: unknown }>;
    const refused = (await run()) as Extract<ServeResponse, { body: string }>;
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.body).error.code).toBe('busy');
    for await (const line of first.stream) void line;
    expect(((await run()) as { status: number }).status).toBe(200);
  });
});
