import { describe, expect, it } from 'vitest';
import { Bm25Index, OKAPI_BM25 } from '../bm25/index.ts';
import { VectorMatrix } from '../dense/index.ts';
import { embeddingModelKey, type EmbeddingModelInfo } from '../embedding/index.ts';
import { buildRetriever, type RetrievalResources } from './build-retriever.ts';
import { DenseRetriever } from './dense-retriever.ts';
import { FusionRetriever } from './fusion-retriever.ts';
import { describePipeline, theoreticalMinScore, type PipelineSpec } from './pipeline-spec.ts';

// A 2-dimensional "model" whose query vector is fixed, so expected scores can be worked out by hand.
const info: EmbeddingModelInfo = { modelId: 'org/toy', dtype: 'fp32', pooling: 'mean', dimensions: 2, prefixes: { query: '', passage: '' } };
const modelKey = embeddingModelKey(info);

function resources(): RetrievalResources & { loaded: string[] } {
  const loaded: string[] = [];
  const index = Bm25Index.create();
  index.addAll([
    { id: 'a', title: '', text: 'tidal mill wheel' },
    { id: 'b', title: '', text: 'wind mill' },
    { id: 'c', title: '', text: 'steam engine' },
  ]);
  const matrix = new VectorMatrix({ model: info });
  matrix.addBatch(['a', 'b', 'c'], [1, 0, 0, 1, 0.6, 0.8]);
  return {
    loaded,
    async bm25Index() {
      loaded.push('bm25');
      return index;
    },
    async denseIndex(key: string) {
      loaded.push(`dense ${key}`);
      if (key !== modelKey) throw new Error(`No embedding set ${key}`);
      const embedQuery = async () => ({ vector: Float32Array.of(0, 1), model: info });
      const embedQueryTokens = async () => ({ vectors: Float32Array.of(0, 1), count: 1, model: { ...info, pooling: 'token' as const } });
      return { matrix, embedder: { info, embedQuery, embedQueryTokens } };
    },
  };
}

const bm25: PipelineSpec = { kind: 'bm25', params: OKAPI_BM25 };
const dense: PipelineSpec = { kind: 'dense', modelKey };

describe('buildRetriever', () => {
  it('builds a dense retriever over the named embedding set only (no BM25 load)', async () => {
    const host = resources();
    const retriever = await buildRetriever(dense, host);
    expect(retriever).toBeInstanceOf(DenseRetriever);
    expect(host.loaded).toEqual([`dense ${modelKey}`]);
    // Query (0, 1): b = 1, c = 0.8, a = 0.
    expect(await retriever.search('anything', 3)).toEqual([
      { id: 'b', score: 1 },
      { id: 'c', score: expect.closeTo(0.8, 6) },
      { id: 'a', score: 0 },
    ]);
  });

  it('builds RRF and CC over any two pipelines, children in order', async () => {
    const host = resources();
    const rrf = await buildRetriever({ kind: 'rrf', pipelines: [dense, bm25], k: 60, fetchKMultiplier: 2 }, host);
    expect(rrf).toBeInstanceOf(FusionRetriever);
    expect((rrf as FusionRetriever).children.map((c) => c.pipeline)).toEqual(['dense', 'bm25']);
    // Dense ranks b, c, a; BM25 for "mill" ranks only a and b. fetchK = 4.
    const hits = await rrf.search('mill', 3);
    expect(hits.map((h) => h.id)).toEqual(['b', 'a', 'c']);
    const cc = await buildRetriever(
      { kind: 'cc', pipelines: [bm25, bm25], weight: 0.5, normalizeMethod: 'z', pipeline1Min: null, pipeline2Min: null, fetchKMultiplier: 3 },
      host,
    );
    expect(cc.config).toMatchObject({ method: 'cc', normalizeMethod: 'z', fetchKMultiplier: 3, pipeline1: { pipeline: 'bm25' } });
  });

  it('says clearly when a host has no dense retrieval or the set is unknown', async () => {
    const host = resources();
    await expect(buildRetriever(dense, { bm25Index: host.bm25Index })).rejects.toThrow('Dense retrieval is not available here');
    await expect(buildRetriever({ kind: 'dense', modelKey: 'nope' }, host)).rejects.toThrow('No embedding set nope');
    await expect(buildRetriever({ kind: 'rrf', pipelines: [bm25] as never, k: 60, fetchKMultiplier: 2 }, host)).rejects.toThrow('exactly two pipelines');
  });

  it('labels every kind', () => {
    expect(describePipeline(dense)).toBe('Dense org/toy');
    expect(describePipeline({ kind: 'dense', modelKey, searchMode: 'multi' })).toBe('Dense org/toy MaxSim');
    expect(describePipeline({ kind: 'rrf', pipelines: [dense, bm25], k: 60, fetchKMultiplier: 2 })).toBe('RRF k=60 (Dense org/toy + BM25 k1=0.9 b=0.4)');
    expect(
      describePipeline({ kind: 'cc', pipelines: [dense, bm25], weight: 0.3, normalizeMethod: 'dbsf', pipeline1Min: null, pipeline2Min: null, fetchKMultiplier: 2 }),
    ).toBe('CC dbsf w=0.3 (Dense org/toy + BM25 k1=0.9 b=0.4)');
    expect([theoreticalMinScore(bm25), theoreticalMinScore(dense), theoreticalMinScore({ kind: 'rrf', pipelines: [dense, bm25], k: 60, fetchKMultiplier: 2 })]).toEqual([
      0,
      -1,
      null,
    ]);
  });
});
