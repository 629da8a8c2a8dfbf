import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../bm25/index.ts';
import { type CorpusDocument, documentsChecksum } from '../corpus/index.ts';
import { MemoryCorpusStore, MemoryVectorStore } from '../storage/index.ts';
import { seededRandom, unitRows } from '../../test-support/random-vectors.ts';
import { corpusRecord } from '../../test-support/stored-corpus.ts';
import { exportCorpusSnapshot, importCorpusSnapshot } from './corpus-snapshot.ts';

const docs: CorpusDocument[] = Array.from({ length: 1203 }, (_, i) => ({ id: `d${String(i).padStart(4, '0')}`, title: i % 3 ? '' : `T ${i}`, text: `passage ${i} about ${['tea', 'ships', 'lighthouses'][i % 3]} and number ${i % 17}` }));
const DIMS = 8;
const CHUNK = 500;

async function source() {
  const corpora = new MemoryCorpusStore();
  const vectors = new MemoryVectorStore();
  await corpora.beginCorpus(corpusRecord('c1', { name: 'Snap' }));
  await corpora.putBatch('c1', { documents: docs, queries: [{ id: 'q1', text: 'tea ships', answers: ['tea'] }], qrels: [{ queryId: 'q1', docId: 'd0003', relevance: 1 }] });
  const index = Bm25Index.create();
  index.addAll(docs);
  await corpora.commitCorpus('c1', { index: index.serialize(), documentCount: docs.length, queryCount: 1, qrelCount: 1, questionCount: 1, issues: [], issueCount: 0, checksum: documentsChecksum(docs) });
  const set = {
    corpusId: 'c1', modelKey: 'tiny', model: { modelId: 'tiny', dtype: 'fp32', pooling: 'mean' as const, dimensions: DIMS, prefixes: { query: '', passage: '' } },
    source: { location: 'app' as const, modelId: 'tiny' }, maxTokens: 128, chunkRows: CHUNK, tokens: false, totalRows: docs.length, rowsDone: 0, lastId: null,
    complete: false, device: 'wasm', bytes: 0, createdAt: 1, updatedAt: 1, modelFiles: [{ path: 'onnx/model.onnx', sha256: 'a'.repeat(64), bytes: 3 }],
  };
  await vectors.createSet(set);
  const rows = unitRows(seededRandom(7), docs.length, DIMS);
  for (let c = 0; c * CHUNK < docs.length; c++) {
    const ids = docs.slice(c * CHUNK, (c + 1) * CHUNK).map((d) => d.id);
    const rowsDone = c * CHUNK + ids.length;
    await vectors.writeChunk('c1', 'tiny', { index: c, ids, vectors: rows.slice(c * CHUNK * DIMS, rowsDone * DIMS) }, [], { rowsDone, lastId: ids.at(-1)!, complete: rowsDone === docs.length, bytesAdded: ids.length * DIMS * 4 });
  }
  return { corpora, vectors, rows };
}

async function bytesOf(stores: Awaited<ReturnType<typeof source>>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of exportCorpusSnapshot('c1', stores)) parts.push(chunk.slice());
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

const streamOf = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]).stream();

describe('corpus snapshots', () => {
  it('import in another store with documents, queries, qrels, the same BM25 results and the same vectors', async () => {
    const from = await source();
    const bytes = await bytesOf(from);
    const to = { corpora: new MemoryCorpusStore(), vectors: new MemoryVectorStore() };
    const progress: string[] = [];
    const corpus = await importCorpusSnapshot(streamOf(bytes), bytes.length, to, { onProgress: (p) => progress.push(p.phase) });
    expect(corpus).toMatchObject({ name: 'Snap', status: 'ready', documentCount: docs.length, queryCount: 1, qrelCount: 1, questionCount: 1, checksum: documentsChecksum(docs) });
    expect(progress).toContain('reading');
    expect(await to.corpora.listDocuments(corpus.id, { limit: 5000 })).toEqual(docs);
    expect(await to.corpora.getQueries(corpus.id)).toEqual(await from.corpora.getQueries('c1'));
    expect(await to.corpora.getQrels(corpus.id)).toEqual(await from.corpora.getQrels('c1'));
    const search = async (store: MemoryCorpusStore, id: string) => Bm25Index.restore((await store.getBm25Index(id))!).search('tea ships lighthouses 5', 20);
    expect(await search(to.corpora, corpus.id)).toEqual(await search(from.corpora, 'c1'));
    const set = (await to.vectors.getSet(corpus.id, 'tiny'))!;
    expect(set).toMatchObject({ rowsDone: docs.length, complete: true, modelFiles: [{ path: 'onnx/model.onnx', sha256: 'a'.repeat(64), bytes: 3 }] });
    const chunks = await to.vectors.getChunks(corpus.id, 'tiny');
    expect(chunks.map((c) => c.ids).flat()).toEqual(docs.map((d) => d.id));
    expect(chunks.map((c) => [...c.vectors]).flat()).toEqual([...from.rows]);
  });

  it('a truncated or damaged file stores nothing, with a clear message', async () => {
    const bytes = await bytesOf(await source());
    for (const broken of [bytes.slice(0, bytes.length - 100), bytes.slice(0, bytes.length / 2), (() => { const b = bytes.slice(); b[Math.floor(b.length / 3)] ^= 0x20; return b; })()]) {
      const to = { corpora: new MemoryCorpusStore(), vectors: new MemoryVectorStore() };
      await expect(importCorpusSnapshot(streamOf(broken), broken.length, to)).rejects.toThrow(/The snapshot is (truncated|damaged)/);
      expect(await to.corpora.listCorpora()).toEqual([]);
      expect(await to.corpora.listIncomplete()).toEqual([]);
    }
    const to = { corpora: new MemoryCorpusStore(), vectors: new MemoryVectorStore() };
    await expect(importCorpusSnapshot(streamOf(new TextEncoder().encode('id\ttext\n')), 8, to)).rejects.toThrow('not a workbench corpus snapshot');
  });

  it('a cancelled import stores nothing', async () => {
    const bytes = await bytesOf(await source());
    const to = { corpora: new MemoryCorpusStore(), vectors: new MemoryVectorStore() };
    const controller = new AbortController();
    const run = importCorpusSnapshot(streamOf(bytes), bytes.length, to, { signal: controller.signal, onProgress: (p) => p.done > bytes.length / 2 && controller.abort() });
    await expect(run).rejects.toThrow();
    expect(await to.corpora.listCorpora()).toEqual([]);
    expect(await to.corpora.listIncomplete()).toEqual([]);
  });
});
