// Real inference with the generated tiny BERT: the same path a downloaded model takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTinyModel } from '../../test-support/tiny-model.ts';
import { VectorMatrix, MultiVectorStore } from '../dense/index.ts';
import { loadEmbedder, type Embedder, embeddingModelKey } from '../embedding/index.ts';
import { DenseRetriever, type DenseIndex } from './dense-retriever.ts';

let model: ReturnType<typeof makeTinyModel>;
let embedder: Embedder;
const texts = ['the cat is fast', 'the dog is slow', 'red car and blue car', 'hello world', 'a cat and a dog'];
const ids = ['d1', 'd2', 'd3', 'd4', 'd5'];
let index: DenseIndex;
let tokenStore: MultiVectorStore;

beforeAll(async () => {
  model = makeTinyModel();
  embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: model.root });
  const matrix = new VectorMatrix({ model: embedder.info });
  matrix.addBatch(ids, await embedder.embedTexts(texts, 'passage'));
  tokenStore = new MultiVectorStore({ model: embedder.tokenInfo });
  (await embedder.embedTextTokens(texts, 'passage')).forEach((t, i) => tokenStore.add(ids[i]!, t));
  index = { matrix, embedder, tokens: async () => tokenStore };
});
afterAll(async () => {
  await embedder?.dispose();
  model?.cleanup();
});

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, x, i) => s + x * b[i]!, 0);

describe('DenseRetriever (tiny-bert)', () => {
  it('ranks a document whose text is the query first, with cosine 1', async () => {
    const hits = await new DenseRetriever(index).search('hello world', 3);
    expect(hits[0]!.id).toBe('d4');
    expect(hits[0]!.score).toBeCloseTo(1, 5);
    expect(hits).toHaveLength(3);
  });

  it('scores every document by the cosine of its stored vector and the query embedding, best first', async () => {
    const retriever = new DenseRetriever(index);
    const query = await retriever.embedQuery('a fast red cat');
    const stored = await retriever.vectorsFor(ids);
    const expected = ids.map((id) => ({ id, score: dot(query.vector, stored.get(id)!) })).sort((a, b) => b.score - a.score);
    const hits = await retriever.search('a fast red cat', 5);
    expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 5));
    expect(await retriever.searchByEmbedding(query, 5)).toEqual(hits);
  });

  it('gives GQR the stored vectors by id (views of the store) and leaves unknown ids out', async () => {
    const retriever = new DenseRetriever(index);
    const vectors = await retriever.vectorsFor(['d2', 'missing', 'd5']);
    expect([...vectors.keys()]).toEqual(['d2', 'd5']);
    const direct = await embedder.embedTexts(['the dog is slow'], 'passage');
    for (let j = 0; j < 32; j++) expect(Math.abs(vectors.get('d2')![j]! - direct[j]!)).toBeLessThan(1e-6);
    const tokens = await retriever.tokenVectorsFor(['d4', 'missing']);
    expect([...tokens.keys()]).toEqual(['d4']);
    // "hello world" → [CLS] hello world [SEP]: four token vectors.
    expect(tokens.get('d4')!.map((v) => v.length)).toEqual([32, 32, 32, 32]);
    const q = await retriever.embedQueryTokens('hello world');
    expect(q.count).toBe(4);
    expect(q.model.pooling).toBe('token');
  });

  it('searches token vectors with MaxSim in multi mode: a document equal to the query scores 1', async () => {
    const retriever = new DenseRetriever(index, { searchMode: 'multi' });
    const hits = await retriever.search('hello world', 2);
    expect(hits[0]).toEqual({ id: 'd4', score: expect.closeTo(1, 5) });
    expect(retriever.config.searchMode).toBe('multi');
    const withoutTokens = { matrix: index.matrix, embedder };
    expect(() => new DenseRetriever(withoutTokens, { searchMode: 'multi' })).toThrow('stored without token-level embeddings');
    expect(new DenseRetriever(withoutTokens).hasTokenVectors).toBe(false);
    expect(await new DenseRetriever(withoutTokens).tokenVectorsFor(['d1'])).toEqual(new Map());
  });

  it('records the model that produced the vectors in its config', () => {
    const config = new DenseRetriever(index).config;
    expect(config).toEqual({
      model: embedder.info,
      modelKey: embeddingModelKey(embedder.info),
      searchMode: 'single',
      similarity: 'cosine (exact)',
      documents: 5,
    });
  });

  it('refuses to search vectors of one model with queries embedded by another', async () => {
    const e5Like = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: model.root, prefixes: { query: 'query: ', passage: 'passage: ' } });
    try {
      expect(() => new DenseRetriever({ matrix: index.matrix, embedder: e5Like })).toThrow(/Embedding model mismatch.*query prefix "query: "/);
      // An embedder that changes identity after construction is caught on the query.
      const sneaky = { info: embedder.info, embedQuery: (t: string) => e5Like.embedQuery(t), embedQueryTokens: (t: string) => e5Like.embedQueryTokens(t) };
      await expect(new DenseRetriever({ matrix: index.matrix, embedder: sneaky }).search('cat', 1)).rejects.toThrow('Embedding model mismatch');
    } finally {
      await e5Like.dispose();
    }
  });

  it('reports a model failure on the query as an EmbeddingError naming the model', async () => {
    const failing = {
      info: embedder.info,
      embedQuery: async () => {
        throw new Error('session crashed');
      },
      embedQueryTokens: async () => {
        throw new Error('session crashed');
      },
    };
    const dense = new DenseRetriever({ matrix: index.matrix, embedder: failing });
    await expect(dense.search('cat', 1)).rejects.toMatchObject({ name: 'EmbeddingError', message: 'tiny-bert could not embed the query: session crashed' });
    await expect(dense.embedQueryTokens('cat')).rejects.toMatchObject({ name: 'EmbeddingError' });
  });
});

describe('DenseRetriever vector forms (tiny-bert)', () => {
  it('searches int8 and binary forms with float32 rescoring: the exact hits and scores here', async () => {
    const exact = await new DenseRetriever(index).search('a fast red cat', 5);
    for (const vectorForm of ['int8', 'binary'] as const) {
      const retriever = new DenseRetriever(index, { vectorForm });
      expect(retriever.vectorForm).toBe(vectorForm);
      expect(await retriever.search('a fast red cat', 5)).toEqual(exact);
      expect(retriever.config).toMatchObject({ vectorForm, similarity: `cosine (${vectorForm} first pass, float32 rescoring of 4×k)`, documents: 5 });
    }
  });

  it('searches the int8 form certified exact, and says so in its config', async () => {
    const exact = await new DenseRetriever(index).search('a fast red cat', 5);
    const retriever = new DenseRetriever(index, { vectorForm: 'int8-exact' });
    expect(await retriever.search('a fast red cat', 5)).toEqual(exact);
    expect(retriever.config).toMatchObject({ vectorForm: 'int8-exact', similarity: expect.stringMatching(/^cosine \(exact: int8 first pass/) });
  });

  it('picks float32 automatically for a small set, and records nothing new in its config', () => {
    const retriever = new DenseRetriever(index, { vectorForm: 'auto' });
    expect(retriever.vectorForm).toBe('float32');
    expect(retriever.config).not.toHaveProperty('vectorForm');
  });

  it('searches a compact-only index, and refuses float32 on it with words', async () => {
    const { CompactVectors } = await import('../dense/index.ts');
    const compact = CompactVectors.fromMatrix(index.matrix!);
    const compactOnly: DenseIndex = { compact, embedder };
    const hits = await new DenseRetriever(compactOnly, { vectorForm: 'int8' }).search('hello world', 2);
    expect(hits[0]!.id).toBe('d4');
    expect(() => new DenseRetriever(compactOnly, { vectorForm: 'float32' })).toThrow(/Only the compact form of these 5 vectors/);
    // GQR gets the dequantised rows: close to the stored ones
    const near = (await new DenseRetriever(compactOnly, { vectorForm: 'int8' }).vectorsFor(['d2'])).get('d2')!;
    const stored = index.matrix!.vectorOf('d2')!;
    for (let j = 0; j < 32; j++) expect(Math.abs(near[j]! - stored[j]!)).toBeLessThan(0.01);
    expect([...near]).not.toEqual([...stored]);
    // certified exact: the float32 rows read back (here from the matrix, in the tab from storage), as searched
    const readBack = CompactVectors.fromMatrix(index.matrix!);
    const exact = await new DenseRetriever({ compact: readBack, embedder }, { vectorForm: 'int8-exact' }).vectorsFor(['d2', 'missing', 'd4']);
    expect([...exact.keys()]).toEqual(['d2', 'd4']);
    expect(exact.get('d2')).toEqual(stored);
    expect(exact.get('d4')).toEqual(index.matrix!.vectorOf('d4'));
  });
});
