// Real inference with the generated tiny BERT, into memory, with a cache that keeps the set between calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTinyModel } from '../../test-support/tiny-model.ts';
import { storeCorpus } from '../../test-support/stored-corpus.ts';
import type { CorpusDocument } from '../corpus/index.ts';
import { loadEmbedder, type Embedder } from '../embedding/index.ts';
import { MemoryCorpusStore, type MemoryVectorStore, type EmbeddingSetRecord, type VectorChunk } from '../storage/index.ts';
import { embedCorpusInMemory, type DocumentVectorCache } from './embed-in-memory.ts';

let model: ReturnType<typeof makeTinyModel>;
let embedder: Embedder;
const source = { location: 'app' as const, modelId: 'tiny-bert' };
const docs: CorpusDocument[] = ['the red car', 'a fast dog', 'the cat sleeps', 'red and fast'].map((text, i) => ({ id: `d${i}`, title: '', text }));

beforeAll(async () => {
  model = makeTinyModel();
  embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: model.root, batchSize: 2 });
});
afterAll(async () => {
  await embedder?.dispose();
  model?.cleanup();
});

async function corpus(): Promise<MemoryCorpusStore> {
  const store = new MemoryCorpusStore();
  await storeCorpus(store, 'c1', docs);
  return store;
}

/** Keeps the saved set's chunks and writes them back on restore, as a host's cache would. */
function memoryCache(): DocumentVectorCache & { saves: number } {
  let kept: { set: EmbeddingSetRecord; chunks: VectorChunk[] } | null = null;
  return {
    saves: 0,
    async save(set, vectors) {
      this.saves++;
      kept = { set, chunks: await vectors.getChunks(set.corpusId, set.modelKey) };
    },
    async restore(vectors: MemoryVectorStore) {
      if (!kept) return false;
      const { set, chunks } = kept;
      await vectors.createSet({ ...set, rowsDone: 0, complete: false, bytes: 0 });
      let rows = 0;
      for (const [i, chunk] of chunks.entries()) {
        rows += chunk.ids.length;
        const done = { rowsDone: rows, lastId: chunk.ids.at(-1)!, complete: i === chunks.length - 1, bytesAdded: chunk.vectors.byteLength };
        await vectors.writeChunk(set.corpusId, set.modelKey, chunk, [], done);
      }
      return true;
    },
  };
}

describe('embedCorpusInMemory', () => {
  it('embeds every document and opens the dense index over the set', async () => {
    const { set, index, fromCache } = await embedCorpusInMemory(embedder, await corpus(), { corpusId: 'c1', source });
    expect(fromCache).toBe(false);
    expect(set.rowsDone).toBe(docs.length);
    expect(set.complete).toBe(true);
    expect([...index.matrix!.ids]).toEqual(docs.map((d) => d.id));
    expect(index.embedder).toBe(embedder);
    expect(index.tokens).toBeUndefined();
  });

  it('fills the cache once, then reads the same vectors from it', async () => {
    const cache = memoryCache();
    const first = await embedCorpusInMemory(embedder, await corpus(), { corpusId: 'c1', source, cache });
    expect(first.fromCache).toBe(false);
    expect(cache.saves).toBe(1);
    const second = await embedCorpusInMemory(embedder, await corpus(), { corpusId: 'c1', source, cache });
    expect(second.fromCache).toBe(true);
    expect(cache.saves).toBe(1);
    expect(second.set.modelKey).toBe(first.set.modelKey);
    for (const doc of docs) expect([...second.index.matrix!.vectorOf(doc.id)!]).toEqual([...first.index.matrix!.vectorOf(doc.id)!]);
  });

  it('gives the token vectors too when asked for them', async () => {
    const { index } = await embedCorpusInMemory(embedder, await corpus(), { corpusId: 'c1', source, tokens: true });
    const tokens = await index.tokens!();
    expect([...tokens.ids]).toEqual(docs.map((d) => d.id));
    expect(tokens.count(0)).toBeGreaterThan(1);
  });
});
