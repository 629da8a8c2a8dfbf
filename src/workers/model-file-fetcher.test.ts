// The app's model-file fetcher under transformers.js, with tiny-bert served over HTTP from public/models/ (as the
// app serves it): every file read once and whole although transformers.js asks twice, broken bodies retried, a
// file that cannot be read named in words. transformers.js remembers file metadata per model id for the whole
// process, so each test serves tiny-bert under a model id of its own.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as transformers from '@huggingface/transformers';
import { loadEmbedder } from '../core/index.ts';
import { ModelFileFetcher, type ModelFileProgress } from './model-file-fetcher.ts';

const MODELS = path.resolve(import.meta.dirname, '../../public/models');
let server: http.Server;
let origin: string;
/** As in the browser, transformers.js is given a path, not a URL, and asks for `/models/tiny-bert/…`. */
const base = '/models/';
/** Requests the server saw: "GET /models/tiny-bert/onnx/model.onnx". */
let seen: string[] = [];
/** Paths whose next response is cut off after a few bytes (the socket is destroyed). */
let breakNext = new Map<string, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    seen.push(`${req.method} ${url.pathname}${req.headers.range ? ` range=${req.headers.range}` : ''}`);
    const file = path.join(MODELS, 'tiny-bert', decodeURIComponent(url.pathname.replace(/^\/models\/[^/]+\//, '')));
    if (!file.startsWith(MODELS) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const bytes = fs.readFileSync(file);
    res.writeHead(200, { 'content-length': bytes.byteLength, 'content-type': 'application/octet-stream' });
    const breaks = breakNext.get(url.pathname) ?? 0;
    if (breaks > 0) {
      breakNext.set(url.pathname, breaks - 1);
      res.write(bytes.subarray(0, 16), () => res.destroy());
      return;
    }
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  breakNext = new Map();
  // Read local model paths with env.fetch and keep no cache of them, as the app does in a browser.
  Object.assign(transformers.env, { useFS: false, useFSCache: false, useBrowserCache: false });
});

/** Node's fetch with relative URLs resolved as a browser resolves them. */
const plainFetch = (input: string | URL, init?: RequestInit) => fetch(new URL(String(input), origin), init);
const fetcherOf = (options: Partial<ConstructorParameters<typeof ModelFileFetcher>[0]> = {}) =>
  new ModelFileFetcher({ prefixes: [`${origin}${base}`], base: origin, ...options });

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Loads a model as the app's worker does: the fetcher as `env.fetch` and as `env.customCache`. */
async function loadTinyBert(modelId: string, fetcher: ModelFileFetcher | Fetch) {
  const { fetch: before, remoteHost, remotePathTemplate } = transformers.env;
  // Node's transformers.js reads ONNX weights from the cache under their hub key; here that is the same URL.
  if (fetcher instanceof ModelFileFetcher) {
    Object.assign(transformers.env, { fetch: fetcher.fetch, useCustomCache: true, customCache: fetcher.cache, remoteHost: `${origin}${base}`, remotePathTemplate: '{model}/' });
  }
  else transformers.env.fetch = fetcher;
  try {
    // A progress callback, as the app passes one: it is what makes transformers.js probe every file first.
    return await loadEmbedder({ transformers, modelId, localModelPath: base, onLoadProgress: () => undefined });
  } finally {
    Object.assign(transformers.env, { fetch: before, remoteHost, remotePathTemplate, useFS: true, useFSCache: true, useCustomCache: false, customCache: null });
  }
}

const gets = (modelId: string, file: string) => seen.filter((line) => line === `GET /models/${modelId}/${file}`).length;

describe('ModelFileFetcher', () => {
  it('transformers.js alone GETs the weights twice (probe and load); through the fetcher each file is read once', async () => {
    // (Node's transformers.js then cannot open ONNX weights it fetched itself; only the requests matter here.)
    await loadTinyBert('plain-bert', plainFetch).catch(() => undefined);
    expect(gets('plain-bert', 'onnx/model.onnx')).toBe(2); // the behaviour the fetcher exists for
    expect(gets('plain-bert', 'tokenizer.json')).toBe(2);

    const progress: ModelFileProgress[] = [];
    const fetcher = fetcherOf({ onProgress: (p) => progress.push(p) });
    transformers.env.useFS = false;
    const embedder = await loadTinyBert('fetched-bert', fetcher);
    const { vector } = await embedder.embedQuery('wind tunnel');
    expect(vector.length).toBe(embedder.info.dimensions);
    await embedder.dispose();
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) expect(gets('fetched-bert', file), file).toBe(1);
    const size = fs.statSync(path.join(MODELS, 'tiny-bert/onnx/model.onnx')).size;
    expect(progress.filter((p) => p.url.endsWith('onnx/model.onnx')).at(-1)).toEqual({ url: `${origin}${base}fetched-bert/onnx/model.onnx`, loaded: size, total: size });
    expect(fetcher.failure).toBeNull();
  });

  it('retries a body that breaks off and loads the model', async () => {
    breakNext.set('/models/retried-bert/onnx/model.onnx', 2);
    const fetcher = fetcherOf({ retryDelayMs: 1 });
    const embedder = await loadTinyBert('retried-bert', fetcher);
    await embedder.dispose();
    expect(gets('retried-bert', 'onnx/model.onnx')).toBe(3);
    expect(fetcher.failure).toBeNull();
  });

  it('names the file and the tries when it cannot be read, and the load fails with those words', async () => {
    breakNext.set('/models/broken-bert/onnx/model.onnx', 5);
    const fetcher = fetcherOf({ tries: 2, retryDelayMs: 1 });
    await expect(loadTinyBert('broken-bert', fetcher)).rejects.toThrow(/Could not load embedding model "broken-bert"/);
    expect(gets('broken-bert', 'onnx/model.onnx')).toBe(2); // the probe and the load shared the two tries
    expect(fetcher.failure).toMatch(/^The model file \/models\/broken-bert\/onnx\/model\.onnx could not be read from this app \(2 tries\): /);
  });

  it('passes other URLs, ranges and HEAD requests to the fetch underneath, and release forgets the bytes', async () => {
    const calls: string[] = [];
    const next = async (input: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${input}`);
      return new Response('x', { headers: { 'content-length': '1' } });
    };
    const fetcher = new ModelFileFetcher({ prefixes: ['http://app/models/'], base: 'http://app/', next });
    await fetcher.fetch('http://hub/x.onnx');
    await fetcher.fetch('http://app/models/m/onnx/model.onnx', { headers: { Range: 'bytes=0-0' } });
    await fetcher.fetch('http://app/models/m/config.json', { method: 'HEAD' });
    expect(await (await fetcher.fetch('http://app/models/m/config.json')).text()).toBe('x');
    expect(await (await fetcher.fetch('http://app/models/m/config.json')).text()).toBe('x');
    expect(calls).toEqual(['GET http://hub/x.onnx', 'GET http://app/models/m/onnx/model.onnx', 'HEAD http://app/models/m/config.json', 'GET http://app/models/m/config.json']);
    fetcher.release();
    await fetcher.fetch('http://app/models/m/config.json');
    expect(calls.at(-1)).toBe('GET http://app/models/m/config.json');
    expect(calls).toHaveLength(5);
  });
});
