// Real inference with the generated tiny BERT (no stub embedder), into the in-memory vector store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTinyModel } from '../../test-support/tiny-model.ts';
import type { CorpusDocument } from '../corpus/index.ts';
import { loadTokenStore, loadVectorMatrix } from '../dense/index.ts';
import { MemoryCorpusStore, MemoryVectorStore } from '../storage/index.ts';
import { documentText, loadEmbedder, type Embedder, embeddingModelKey } from '../embedding/index.ts';
import { defaultChunkRows, embedCorpus, type EmbedCorpusProgress } from './embed-corpus.ts';
import { storeCorpus } from '../../test-support/stored-corpus.ts';

let model: ReturnType<typeof makeTinyModel>;
let embedder: Embedder;
const source = { location: 'app' as const, modelId: 'tiny-bert' };
// Ids deliberately out of order: the corpus is embedded in id order.
const docs: CorpusDocument[] = Array.from({ length: 9 }, (_, i) => ({
  id: `doc-${String.fromCharCode(105 - i)}`,
  title: i % 2 ? `title ${i}` : '',
  text: `the ${['cat', 'dog', 'car'][i % 3]} is ${'fast '.repeat(i + 1)}and red`,
}));
const sortedIds = docs.map((d) => d.id).sort();

async function corpusStore(documents = docs): Promise<MemoryCorpusStore> {
  const store = new MemoryCorpusStore();
  await storeCorpus(store, 'c1', documents);
  return store;
}

beforeAll(async () => {
  model = makeTinyModel();
  embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: model.root, batchSize: 2 });
});
afterAll(async () => {
  await embedder?.dispose();
  model?.cleanup();
});

const byId = new Map(docs.map((d) => [d.id, d]));
async function expectedRows(ids: readonly string[]): Promise<Float32Array> {
  const texts = ids.map((id) => {
    const d = byId.get(id)!;
    return d.title ? `${d.title}. ${d.text}` : d.text;
  });
  return embedder.embedTexts(texts, 'passage');
}

describe('embedCorpus', () => {
  it('chooses about 1 MiB chunks, 256 to 4,096 rows', () => {
    expect(defaultChunkRows(384)).toBe(512);
    expect(defaultChunkRows(768)).toBe(256);
    expect(defaultChunkRows(32)).toBe(4096);
  });

  it('embeds every document in id order into chunks, records the model, and reports progress', async () => {
    const vectors = new MemoryVectorStore();
    const progress: EmbedCorpusProgress[] = [];
    const set = await embedCorpus(embedder, await corpusStore(), vectors, { corpusId: 'c1', source, chunkRows: 4, onProgress: (p) => progress.push(p) });
    expect(set.modelKey).toBe(embeddingModelKey(embedder.info));
    expect(set.model).toEqual({ modelId: 'tiny-bert', dtype: 'fp32', pooling: 'mean', dimensions: 32, prefixes: { query: '', passage: '' } });
    expect([set.rowsDone, set.totalRows, set.complete, set.lastId, set.maxTokens, set.source]).toEqual([9, 9, true, sortedIds[8], 128, source]);
    expect((await vectors.getChunks('c1', set.modelKey)).map((c) => c.ids.length)).toEqual([4, 4, 1]);
    // Batches of 2 inside chunks of 4: 2, 4 | 6, 8 | 9.
    expect(progress.map((p) => p.done)).toEqual([2, 4, 6, 8, 9]);
    expect(progress.every((p) => p.total === 9 && p.docsPerSecond > 0)).toBe(true);
    expect(progress.at(-1)!.secondsLeft).toBe(0);
    const matrix = await loadVectorMatrix(vectors, set);
    expect(matrix.ids).toEqual(sortedIds);
    const expected = await expectedRows(sortedIds);
    for (let i = 0; i < 9 * 32; i++) expect(Math.abs(matrix.rows.row(Math.floor(i / 32))[i % 32]! - expected[i]!)).toBeLessThan(1e-6);
  });

  it('a cancelled job stores its partial chunk; resuming rewrites that chunk and ends equal to an uninterrupted run', async () => {
    const corpora = await corpusStore();
    const vectors = new MemoryVectorStore();
    const controller = new AbortController();
    const first = embedCorpus(embedder, corpora, vectors, {
      corpusId: 'c1',
      source,
      chunkRows: 4,
      lengthSortWindow: 2, // windows of one batch: every batch done is kept
      signal: controller.signal,
      onProgress: (p) => p.done === 6 && controller.abort(new Error('cancelled by the user')),
    });
    await expect(first).rejects.toThrow('cancelled by the user');
    const key = embeddingModelKey(embedder.info);
    const partial = (await vectors.getSet('c1', key))!;
    expect([partial.rowsDone, partial.lastId, partial.complete]).toEqual([6, sortedIds[5], false]);
    expect((await vectors.getChunks('c1', key)).map((c) => c.ids.length)).toEqual([4, 2]);
    await expect(loadVectorMatrix(vectors, partial)).rejects.toThrow('Only 6 of 9 documents are embedded with tiny-bert');

    let resumedAt = -1;
    const done: number[] = [];
    const set = await embedCorpus(embedder, corpora, vectors, {
      corpusId: 'c1',
      source,
      chunkRows: 99, // ignored: a resumed set keeps its own chunk size
      onStart: (_, at) => (resumedAt = at),
      onProgress: (p) => done.push(p.done),
    });
    expect(resumedAt).toBe(6);
    expect(done).toEqual([8, 9]);
    expect((await vectors.getChunks('c1', key)).map((c) => c.ids)).toEqual([sortedIds.slice(0, 4), sortedIds.slice(4, 8), sortedIds.slice(8)]);
    expect(set.bytes).toBe(9 * 32 * 4);
    const matrix = await loadVectorMatrix(vectors, set);
    const expected = await expectedRows(sortedIds);
    for (let r = 0; r < 9; r++) for (let j = 0; j < 32; j++) expect(Math.abs(matrix.rows.row(r)[j]! - expected[r * 32 + j]!)).toBeLessThan(1e-6);
  });

  it('an abort that arrives as a message (as from the page to a worker) stops the job within one model batch', async () => {
    // A slow model whose batches never yield to the event loop, like wasm inference in a worker.
    const slow = Object.create(embedder) as Embedder;
    const calls: number[] = [];
    slow.embedTexts = async (texts) => {
      calls.push(performance.now());
      const until = performance.now() + 30;
      while (performance.now() < until);
      return new Float32Array(texts.length * embedder.info.dimensions).fill(0.5);
    };
    const { port1, port2 } = new MessageChannel();
    const controller = new AbortController();
    port2.onmessage = () => controller.abort(new DOMException('Embedding was cancelled', 'AbortError'));
    let sentAt = 0;
    let batchesBefore = 0;
    const vectors = new MemoryVectorStore();
    const job = embedCorpus(slow, await corpusStore(), vectors, {
      corpusId: 'c1',
      source,
      batchSize: 1,
      lengthSortWindow: 1, // every batch done is kept, so what was embedded can be counted
      chunkRows: 256, // one chunk: the old code only heard the abort when the chunk ended
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done !== 2) return;
        batchesBefore = calls.length;
        sentAt = performance.now();
        port1.postMessage('cancel');
      },
    });
    await expect(job).rejects.toThrow('Embedding was cancelled');
    const stoppedAfter = performance.now() - sentAt;
    port1.close();
    // The batch running when the message came may finish; no other starts.
    expect(calls.length - batchesBefore).toBeLessThanOrEqual(1);
    expect(stoppedAfter).toBeLessThan(500);
    // What was embedded is kept and resumable (the resume design), nothing more.
    const partial = (await vectors.getSet('c1', embeddingModelKey(embedder.info)))!;
    expect(partial.complete).toBe(false);
    expect(partial.rowsDone).toBe(calls.length);
  });

  it('the model sees each window longest first; the rows are stored in id order, equal to an id-order run', async () => {
    const seen: string[][] = [];
    const recording = Object.create(embedder) as Embedder;
    recording.embedTexts = async (texts, kind) => {
      seen.push(texts);
      return embedder.embedTexts(texts, kind);
    };
    const sortedSet = await embedCorpus(recording, await corpusStore(), new MemoryVectorStore(), { corpusId: 'c1', source, batchSize: 2, lengthSortWindow: 4, chunkRows: 8 });
    const text = (id: string) => documentText(byId.get(id)!);
    const windows = [sortedIds.slice(0, 4), sortedIds.slice(4, 8), sortedIds.slice(8)];
    const tokens = (t: string) => embedder.tokenCounts([t], 'passage')[0]!;
    const longestFirst = (ids: string[]) => ids.map(text).sort((a, b) => tokens(b) - tokens(a));
    // Windows of 4 (the chunk of 8 holds two), each cut into batches of 2 after sorting.
    expect(seen).toEqual(windows.flatMap((w) => { const t = longestFirst(w); return t.length > 2 ? [t.slice(0, 2), t.slice(2)] : [t]; }));
    expect(seen.flat().map((t) => t.length)).not.toEqual(sortedIds.map((id) => text(id).length)); // not id order

    const vectorsOf = async (set: typeof sortedSet, store: MemoryVectorStore) => loadVectorMatrix(store, set);
    // A window of one batch or less is id order, in batches of batchSize still.
    seen.length = 0;
    await embedCorpus(recording, await corpusStore(), new MemoryVectorStore(), { corpusId: 'c1', source, batchSize: 2, lengthSortWindow: 1, chunkRows: 8 });
    expect(seen.map((b) => b.length)).toEqual([2, 2, 2, 2, 1]);
    expect(seen.flat().sort()).toEqual(sortedIds.map(text).sort());
    for (const [i, batch] of seen.entries()) expect(new Set(batch)).toEqual(new Set(sortedIds.slice(i * 2, i * 2 + 2).map(text)));

    const idOrderStore = new MemoryVectorStore();
    const idOrder = await embedCorpus(embedder, await corpusStore(), idOrderStore, { corpusId: 'c1', source, batchSize: 2, lengthSortWindow: 1, chunkRows: 8 });
    const sortedStore = new MemoryVectorStore();
    const again = await embedCorpus(embedder, await corpusStore(), sortedStore, { corpusId: 'c1', source, batchSize: 2, lengthSortWindow: 4, chunkRows: 8 });
    const [a, b] = [await vectorsOf(idOrder, idOrderStore), await vectorsOf(again, sortedStore)];
    expect(b.ids).toEqual(sortedIds);
    expect(a.ids).toEqual(sortedIds);
    for (let r = 0; r < 9; r++) for (let j = 0; j < 32; j++) expect(Math.abs(b.rows.row(r)[j]! - a.rows.row(r)[j]!)).toBeLessThan(1e-6);
  });

  it('a cancel inside a window keeps the windows done and loses only that one; resuming ends equal to an uninterrupted run', async () => {
    const corpora = await corpusStore();
    const vectors = new MemoryVectorStore();
    const controller = new AbortController();
    const options = { corpusId: 'c1', source, batchSize: 1, lengthSortWindow: 3, chunkRows: 8 };
    const done: number[] = [];
    const first = embedCorpus(embedder, corpora, vectors, {
      ...options,
      signal: controller.signal,
      onProgress: (p) => (done.push(p.done), p.done === 5 && controller.abort(new Error('cancelled by the user'))),
    });
    await expect(first).rejects.toThrow('cancelled by the user');
    expect(done).toEqual([1, 2, 3, 4, 5]);
    const key = embeddingModelKey(embedder.info);
    const partial = (await vectors.getSet('c1', key))!;
    // Rows 4 and 5 were embedded, but their window (rows 4–6) was not finished: the first window is kept.
    expect([partial.rowsDone, partial.lastId, partial.complete]).toEqual([3, sortedIds[2], false]);
    expect((await vectors.getChunks('c1', key)).map((c) => c.ids)).toEqual([sortedIds.slice(0, 3)]);

    const set = await embedCorpus(embedder, corpora, vectors, options);
    const matrix = await loadVectorMatrix(vectors, set);
    expect(matrix.ids).toEqual(sortedIds);
    const expected = await expectedRows(sortedIds);
    for (let r = 0; r < 9; r++) for (let j = 0; j < 32; j++) expect(Math.abs(matrix.rows.row(r)[j]! - expected[r * 32 + j]!)).toBeLessThan(1e-6);
    await expect(embedCorpus(embedder, corpora, new MemoryVectorStore(), { ...options, lengthSortWindow: 0 })).rejects.toThrow('lengthSortWindow must be a positive integer, got 0');
  });

  it('a complete set is not embedded again', async () => {
    const corpora = await corpusStore();
    const vectors = new MemoryVectorStore();
    await embedCorpus(embedder, corpora, vectors, { corpusId: 'c1', source });
    const progress: number[] = [];
    const set = await embedCorpus(embedder, corpora, vectors, { corpusId: 'c1', source, onProgress: (p) => progress.push(p.done) });
    expect(set.complete).toBe(true);
    expect(progress).toEqual([]);
  });

  it('stores token-level vectors from the same model run, loadable as a multi-vector store', async () => {
    const vectors = new MemoryVectorStore();
    const set = await embedCorpus(embedder, await corpusStore(), vectors, { corpusId: 'c1', source, chunkRows: 4, tokens: true });
    expect(set.tokens).toBe(true);
    const tokens = await loadTokenStore(vectors, set);
    expect(tokens.ids).toEqual(sortedIds);
    // Every document's tokens under its own id, though the model saw each window longest first.
    for (const id of sortedIds) {
      const d = byId.get(id)!;
      const [direct] = await embedder.embedTextTokens([d.title ? `${d.title}. ${d.text}` : d.text], 'passage');
      const stored = tokens.vectorsOf(id)!;
      expect(stored.count).toBe(direct!.count);
      for (let i = 0; i < direct!.vectors.length; i++) expect(Math.abs(stored.vectors[i]! - direct!.vectors[i]!)).toBeLessThan(1e-6);
    }
    const pooledOnly = await embedCorpus(embedder, await corpusStore(), new MemoryVectorStore(), { corpusId: 'c1', source });
    await expect(loadTokenStore(vectors, pooledOnly)).rejects.toThrow('stored without token-level embeddings');
  });

  it('refuses to resume with a different truncation length, and to embed a missing corpus', async () => {
    const corpora = await corpusStore();
    const vectors = new MemoryVectorStore();
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(embedCorpus(embedder, corpora, vectors, { corpusId: 'c1', source, signal: controller.signal })).rejects.toThrow('stop');
    const shorter = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: model.root, maxTokens: 16 });
    await expect(embedCorpus(shorter, corpora, vectors, { corpusId: 'c1', source })).rejects.toThrow(/cut at 128 tokens.*now set to 16/);
    await shorter.dispose();
    await expect(embedCorpus(embedder, corpora, vectors, { corpusId: 'nope', source })).rejects.toThrow('Corpus nope is not stored');
  });
});
