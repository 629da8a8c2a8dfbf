// Real inference with the generated tiny BERT; the timing itself is not asserted (speed is for benches).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTinyModel } from '../../test-support/tiny-model.ts';
import { storeCorpus } from '../../test-support/stored-corpus.ts';
import { MemoryCorpusStore } from '../storage/index.ts';
import { measureEmbeddingSpeed, secondsToEmbed } from './embedding-speed.ts';
import { loadEmbedder, type Embedder } from '../embedding/index.ts';

let model: ReturnType<typeof makeTinyModel>;
let embedder: Embedder;
beforeAll(async () => {
  model = makeTinyModel();
  embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: model.root });
});
afterAll(async () => {
  await embedder?.dispose();
  model?.cleanup();
});

describe('measureEmbeddingSpeed', () => {
  it('embeds the first documents once after a warm-up text and reports docs/s', async () => {
    const store = new MemoryCorpusStore();
    await storeCorpus(store, 'c', Array.from({ length: 12 }, (_, i) => ({ id: `d${String(i).padStart(2, '0')}`, title: '', text: `the cat ${i}` })));
    const seen: number[] = [];
    const counting: Embedder = Object.assign(Object.create(embedder), {
      embedTexts: (texts: string[], kind: 'query' | 'passage') => {
        seen.push(texts.length);
        return embedder.embedTexts(texts, kind);
      },
    });
    const speed = await measureEmbeddingSpeed(counting, store, 'c', { sample: 5 });
    expect(seen).toEqual([1, 5]);
    expect(speed.documents).toBe(5);
    expect(speed.docsPerSecond).toBeCloseTo(5 / speed.seconds, 6);
    expect(secondsToEmbed(1200, 4)).toBe(300);
    expect(secondsToEmbed(10, 0)).toBe(Infinity);
  });

  it('says so when the corpus has no documents', async () => {
    const store = new MemoryCorpusStore();
    await storeCorpus(store, 'empty', []);
    await expect(measureEmbeddingSpeed(embedder, store, 'empty', { sample: 4 })).rejects.toThrow(/no stored documents/);
  });
});
