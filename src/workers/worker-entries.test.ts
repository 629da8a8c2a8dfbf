// Worker entry modules import in Node without side effects (no database opened, nothing exposed), and their APIs
// run the core's use cases over whatever stores they are given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingModelKey, MemoryCorpusStore, MemoryRunStore, MemoryVectorStore, type Embedder, type EmbeddingModelInfo, type PipelineSpec } from '../core/index.ts';
import { storeCorpus } from '../test-support/stored-corpus.ts';
import { withAbortPort } from './abort-bridge.ts';
import type { ModelSettings } from './embed-worker-api.ts';

const ENTRIES = ['corpus', 'retrieval', 'embed', 'gqr', 'hds', 'compare'] as const;
const touched: string[] = [];
const had = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB');

beforeAll(() => {
  // No fake-indexeddb here: any use of IndexedDB is recorded and fails.
  Object.defineProperty(globalThis, 'indexedDB', {
    configurable: true,
    get() {
      touched.push(new Error().stack ?? 'indexedDB');
      throw new Error('IndexedDB opened at import');
    },
  });
});
afterAll(() => {
  if (had) Object.defineProperty(globalThis, 'indexedDB', had);
  else delete (globalThis as { indexedDB?: unknown }).indexedDB;
});

const docs = [
  { id: 'd1', title: 'Harbours', text: 'The ferry leaves the harbour at dawn.' },
  { id: 'd2', title: '', text: 'Salt is loaded on the quay; ferries wait.' },
  { id: 'd3', title: 'Mountains', text: 'No water here at all.' },
];

async function memoryStores() {
  const corpora = new MemoryCorpusStore();
  await storeCorpus(corpora, 'c', docs);
  const vectors = new MemoryVectorStore();
  const runs = new MemoryRunStore();
  return { corpora: async () => corpora, vectors: async () => vectors, runs: async () => runs };
}

describe('worker entry modules', () => {
  it.each(ENTRIES)('%s.worker.ts imports without opening IndexedDB', async (name) => {
    const module = (await import(`./${name}.worker.ts`)) as Record<string, unknown>;
    expect(Object.keys(module).some((key) => key.startsWith('create') && typeof module[key] === 'function')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(touched).toEqual([]);
  });

  it('the retrieval worker searches through the core use case, with the BM25 scorer’s matched terms', async () => {
    const { createRetrievalWorkerApi } = await import('./retrieval.worker.ts');
    const api = createRetrievalWorkerApi(await memoryStores());
    const spec = { kind: 'bm25', params: { k1: 0.9, b: 0.4 } } as PipelineSpec;
    const response = await api.search('c', spec, 'ferry harbour', 5);
    expect(response.hits.map((h) => h.id)).toEqual(['d1', 'd2']);
    expect(response.hits[0]!.terms).toHaveLength(2);
    expect(response.hits[1]!.terms).toHaveLength(1);
    expect(response.hits[0]!.document?.title).toBe('Harbours');
    expect(response.loaded).toEqual(['BM25 index restored from storage']);
    expect((await api.search('c', spec, 'salt', 5)).loaded).toEqual([]);
    expect(touched).toEqual([]);
  });

  it('the embed worker stops within one model batch when its abort port fires', async () => {
    const { createEmbedWorkerApi } = await import('./embed.worker.ts');
    const info: EmbeddingModelInfo = { modelId: 'slow', dtype: 'fp32', pooling: 'mean', dimensions: 4, prefixes: { query: '', passage: '' } };
    const batches: number[] = [];
    const embedder = {
      info,
      maxTokens: 128,
      batchSize: 1,
      async embedTexts(texts: string[]) {
        batches.push(texts.length);
        const until = performance.now() + 30; // inference that never yields, like wasm in a worker
        while (performance.now() < until);
        return new Float32Array(texts.length * 4).fill(0.5);
      },
      tokenCounts: (texts: readonly string[]) => texts.map((t) => t.length),
      async dispose() {},
    } as unknown as Embedder;
    const stores = await memoryStores();
    const api = createEmbedWorkerApi(stores, async () => ({ embedder, device: 'wasm' }));
    const controller = new AbortController();
    let batchesAtAbort = -1;
    const settings = { source: { location: 'app', modelId: 'slow' }, dtype: 'fp32' } as ModelSettings;
    const job = withAbortPort(controller.signal, (port) =>
      api.embed({ corpusId: 'c', model: settings, batchSize: 1, tokens: false }, (event) => {
        if (event.kind === 'progress' && event.progress.done === 1) {
          batchesAtAbort = batches.length;
          controller.abort(new DOMException('Embedding was cancelled', 'AbortError'));
        }
      }, port),
    );
    await expect(job).rejects.toThrow('Embedding was cancelled');
    expect(batches.length - batchesAtAbort).toBeLessThanOrEqual(1);
    const set = await (await stores.vectors()).getSet('c', embeddingModelKey(info));
    expect(set?.complete).toBe(false);
    // The three documents are one length-sorted window, stopped before its end: none of it is stored.
    expect(set?.rowsDone).toBe(0);
  });
});
