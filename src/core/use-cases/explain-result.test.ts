import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../bm25/index.ts';
import { OKAPI_BM25 } from '../bm25/index.ts';
import { VectorMatrix } from '../dense/index.ts';
import { embeddingModelKey } from '../embedding/index.ts';
import type { EmbeddingModelInfo } from '../embedding/index.ts';
import { DEFAULT_GQR_CONFIG } from '../gqr/index.ts';
import { buildRetriever, type RetrievalResources } from '../retrieval/index.ts';
import type { PipelineSpec } from '../retrieval/index.ts';
import { explainResult, type PartExplanation } from './explain-result.ts';

// A 3-dimensional "model" whose query vector is fixed, so dense scores are plain dot products.
const info: EmbeddingModelInfo = { modelId: 'org/toy', dtype: 'fp32', pooling: 'mean', dimensions: 3, prefixes: { query: '', passage: '' } };
const modelKey = embeddingModelKey(info);
const docs = [
  { id: 'a', title: 'Tidal mills', text: 'tidal mill wheel on the estuary, tidal power' },
  { id: 'b', title: '', text: 'wind mill on the hill' },
  { id: 'c', title: 'Engines', text: 'steam engine and mill machinery' },
  { id: 'd', title: '', text: 'estuary birds and salt marsh' },
  { id: 'e', title: '', text: 'a water wheel turns the mill stones' },
  { id: 'f', title: '', text: 'harbour of the old town' },
];
const vectors = [
  [1, 0, 0],
  [0, 1, 0],
  [0.6, 0.8, 0],
  [0, 0.6, 0.8],
  [0.8, 0, 0.6],
  [0, 0, 1],
];

function resources(): RetrievalResources {
  const index = Bm25Index.create();
  index.addAll(docs);
  const matrix = new VectorMatrix({ model: info });
  matrix.addBatch(
    docs.map((d) => d.id),
    vectors.flat(),
  );
  const q = Float32Array.of(0.48, 0.6, 0.64);
  return {
    bm25Index: async () => index,
    async denseIndex() {
      const embedQuery = async () => ({ vector: q, model: info });
      const embedQueryTokens = async () => ({ vectors: q, count: 1, model: { ...info, pooling: 'token' as const } });
      return { matrix, embedder: { info, embedQuery, embedQueryTokens } };
    },
  };
}

const bm25: PipelineSpec = { kind: 'bm25', params: OKAPI_BM25 };
const dense: PipelineSpec = { kind: 'dense', modelKey };
const SPECS: Array<[string, PipelineSpec]> = [
  ['bm25', bm25],
  ['dense', dense],
  ['rrf', { kind: 'rrf', pipelines: [dense, bm25], k: 60, fetchKMultiplier: 2 }],
  ['cc', { kind: 'cc', pipelines: [dense, bm25], weight: 0.3, normalizeMethod: 'mm', pipeline1Min: null, pipeline2Min: null, fetchKMultiplier: 2 }],
  ['gqr', { kind: 'gqr', primary: dense, complementary: bm25, config: { ...DEFAULT_GQR_CONFIG, nSteps: 5 } }],
];
const query = 'tidal mill estuary';

describe('explainResult', () => {
  it.each(SPECS)('%s: the explained score is the score the search gave every result', async (_, spec) => {
    const host = resources();
    const hits = await (await buildRetriever(spec, host)).search(query, 3);
    expect(hits.length).toBe(3);
    for (const [i, hit] of hits.entries()) {
      const why = await explainResult({ spec, query, k: 3, docId: hit.id }, host);
      expect(why.kind).toBe(spec.kind);
      expect(why.rank).toBe(i + 1);
      expect(why.score).toBe(hit.score);
    }
  });

  it('BM25: the per-term contributions add up to the score', async () => {
    const why = await explainResult({ spec: bm25, query, k: 3, docId: 'a' }, resources());
    if (why.kind !== 'bm25') throw new Error(why.kind);
    expect(why.bm25.terms.map((t) => [t.term, t.termFrequency])).toEqual([
      ['tidal', 3],
      ['mill', 2], // mills, mill
      ['estuari', 1], // stemmed
    ]);
    expect(Math.abs(why.bm25.terms.reduce((s, t) => s + t.contribution, 0) - why.score!)).toBeLessThan(1e-9);
  });

  it('RRF: 1/(k + rank) in each child list, the ranks being those the children explain', async () => {
    const spec = SPECS[2]![1];
    const why = await explainResult({ spec, query, k: 2, docId: 'c' }, resources());
    if (why.kind !== 'rrf' || why.fusion?.method !== 'rrf') throw new Error(why.kind);
    const [denseWhy, bm25Why] = why.children;
    expect(denseWhy.depth).toBe(4);
    expect(why.fusion.fetchK).toBe(4);
    expect(why.fusion.lists.map((l) => l.ranks[0] ?? null)).toEqual([denseWhy.rank, bm25Why.rank]);
    // c: dense 0.6·0.48 + 0.8·0.6 = 0.768, second after d (0.6·0.6 + 0.8·0.64 = 0.872)
    expect(denseWhy).toMatchObject({ kind: 'dense', similarity: 'cosine', rank: 2 });
    expect(denseWhy.score).toBeCloseTo(0.768, 6);
    expect(bm25Why.kind).toBe('bm25');
  });

  it('CC: weight × normalised score per child; a child list without the document gives its floor', async () => {
    const spec = SPECS[3]![1];
    const why = await explainResult({ spec, query, k: 1, docId: 'a' }, resources());
    if (why.kind !== 'cc' || why.fusion?.method !== 'cc') throw new Error(why.kind);
    const [first, second] = why.fusion.lists;
    expect(first.weight).toBe(0.3);
    expect(second.weight).toBe(0.7);
    expect(why.score).toBe(first.weighted + second.weighted);
    // a is BM25's best (normalised 1); its dense score is outside the dense top 2 → raw null, normalised 0.
    expect(second).toMatchObject({ rank: 1, normalized: 1 });
    expect(first).toMatchObject({ raw: null, normalized: 0 });
    // The dense child still says what the document's cosine is.
    const denseWhy = why.children[0] as Extract<PartExplanation, { kind: 'dense' }>;
    expect(denseWhy.rank).toBeNull();
    expect(denseWhy.score).toBeCloseTo(0.48, 6);
  });

  it('GQR: the trace pieces of the document, its final score being the result score', async () => {
    const spec = SPECS[4]![1];
    const host = resources();
    const [top] = await (await buildRetriever(spec, host)).search(query, 2);
    const why = await explainResult({ spec, query, k: 2, docId: top!.id }, host);
    if (why.kind !== 'gqr' || !why.gqr) throw new Error(why.kind);
    expect(why.gqr.finalScore).toBe(top!.score);
    expect(why.gqr.finalRank).toBe(1);
    expect(why.gqr).toMatchObject({ path: 'single', steps: 5, mixtureAlpha: DEFAULT_GQR_CONFIG.mixtureAlpha });
    expect(why.children.map((c) => c.kind)).toEqual(['dense', 'bm25']);
    expect(why.children[0].depth).toBe(4);
  });

  it('refuses a served corpus with words', async () => {
    await expect(explainResult({ spec: bm25, query, k: 1, docId: 'a' }, { ...resources(), retriever: async () => { throw new Error('x'); } })).rejects.toThrow(/served corpus/);
  });
});
