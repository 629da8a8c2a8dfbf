import { describe, expect, it } from 'vitest';
import { seededRandom, unitRows } from '../../test-support/random-vectors.ts';
import { corpusRecord } from '../../test-support/stored-corpus.ts';
import { Bm25Index, OKAPI_BM25 } from '../bm25/index.ts';
import { VectorMatrix } from '../dense/index.ts';
import { embeddingModelKey, type EmbeddingModelInfo } from '../embedding/index.ts';
import { DEFAULT_GQR_CONFIG, gqrPool } from '../gqr/index.ts';
import { buildRetriever, type RetrievalResources, type GqrRetriever, type GqrPipelineSpec } from '../retrieval/index.ts';
import { MemoryCorpusStore } from '../storage/index.ts';
import { sweepQueries } from '../sweep/index.ts';
import { runQuerySet } from './run-query-set.ts';
import { runSweep } from './run-sweep.ts';

// 300 documents with random 8-dimensional vectors and words, 12 queries embedded near one document each: the
// GQR lab (a sweep at top 20) and the Runs page (a run at k 200) over the same pipeline.
const DIMS = 8;
const DOCS = 300;
const info: EmbeddingModelInfo = { modelId: 'org/toy', dtype: 'fp32', pooling: 'mean', dimensions: DIMS, prefixes: { query: '', passage: '' } };
const modelKey = embeddingModelKey(info);
const WORDS = ['harbour', 'crane', 'timber', 'ferry', 'estuary', 'lock', 'gate', 'mill', 'tide', 'wheel', 'steam', 'engine', 'pier', 'rope', 'sail'];

async function fixture() {
  const random = seededRandom(7);
  const vectors = unitRows(random, DOCS, DIMS);
  const documents = Array.from({ length: DOCS }, (_, i) => ({
    id: `d${i}`,
    title: '',
    text: Array.from({ length: 6 }, () => WORDS[Math.floor((random() + 0.5) * WORDS.length) % WORDS.length]).join(' '),
  }));
  const queries = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, text: `${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 3) % WORDS.length]} #${i}` }));
  const queryVectors = new Map(queries.map((q, i) => [q.text, Float32Array.from({ length: DIMS }, (_, j) => vectors[(i * 17) * DIMS + j]! + random() * 0.8)]));
  const qrels = queries.flatMap((q, i) => [
    { queryId: q.id, docId: `d${i * 17}`, relevance: 1 },
    { queryId: q.id, docId: `d${(i * 31 + 5) % DOCS}`, relevance: 1 },
  ]);
  const index = Bm25Index.create();
  index.addAll(documents);
  const matrix = new VectorMatrix({ model: info });
  matrix.addBatch(documents.map((d) => d.id), vectors);
  const store = new MemoryCorpusStore();
  await store.beginCorpus(corpusRecord('c1', { name: 'Toy' }));
  await store.putBatch('c1', { documents, queries, qrels });
  await store.commitCorpus('c1', { index: index.serialize(), documentCount: DOCS, queryCount: queries.length, qrelCount: qrels.length, questionCount: 0, issues: [], issueCount: 0 });
  const resources: RetrievalResources = {
    bm25Index: async () => index,
    denseIndex: async () => ({
      matrix,
      embedder: {
        info,
        embedQuery: async (text: string) => ({ vector: queryVectors.get(text)!, model: info }),
        embedQueryTokens: async () => {
          throw new Error('no token vectors');
        },
      },
    }),
  };
  return { store, resources, queries };
}

const spec = (poolSize?: number): GqrPipelineSpec => ({
  kind: 'gqr',
  primary: { kind: 'dense', modelKey },
  complementary: { kind: 'bm25', params: { ...OKAPI_BM25 } },
  config: { ...DEFAULT_GQR_CONFIG, mixtureAlpha: 0.7, ...(poolSize ? { poolSize } : {}) },
});

/** nDCG@10 of the lab (a one-point sweep at top 20) and of Runs (a run at k 200), same pipeline. */
async function labAndRuns(pipeline: GqrPipelineSpec) {
  const { store, resources, queries } = await fixture();
  const sweep = await runSweep(
    { corpusId: 'c1', name: 'Lab', spec: pipeline, axes: [{ key: 'mixtureAlpha', values: [0.7] }], topK: 20, measures: ['nDCG@10'] },
    {
      corpora: store,
      compute: async (job, onProgress, signal) => {
        const gqr = (await buildRetriever(pipeline, resources)) as GqrRetriever;
        return { runs: await sweepQueries(gqr, queries, job, onProgress, signal), config: gqr.config };
      },
    },
  );
  const run = await runQuerySet({ corpusId: 'c1', spec: pipeline, k: 200, name: 'Runs', measures: ['nDCG@10'] }, { corpora: store, resources });
  const point = sweep.records[0]!;
  return { lab: point.metrics!.aggregate['nDCG@10']!, runs: run.record.metrics!.aggregate['nDCG@10']!, point, run: run.record };
}

describe('GQR pool size: the lab and Runs agree once the pool is fixed', () => {
  it('by default the pool follows k, so the same settings score differently at top 20 and at k 200', async () => {
    const { lab, runs, run, point } = await labAndRuns(spec());
    expect(lab).not.toBeCloseTo(runs, 6);
    expect(run.config).toMatchObject({ poolPerChild: 400 });
    expect(point.config).toMatchObject({ poolPerChild: 40 });
  });

  it('with a fixed pool size both give the same nDCG@10, and each run records the pool', async () => {
    const { lab, runs, run, point } = await labAndRuns(spec(60));
    expect(lab).toBeGreaterThan(0);
    expect(runs).toBeCloseTo(lab, 12);
    expect(run.config).toMatchObject({ poolSize: 60, poolPerChild: 60 });
    expect(point.config).toMatchObject({ poolSize: 60, poolPerChild: 60 });
    expect((run.pipeline as GqrPipelineSpec).config.poolSize).toBe(60);
  });

  it('describes and validates the pool', () => {
    expect(gqrPool(100, {})).toEqual({ perChild: 200, followsK: true, maxCandidates: 400 });
    expect(gqrPool(1000, { poolSize: 200, candidatePoolMode: 'primary' })).toEqual({ perChild: 200, followsK: false, maxCandidates: 200 });
    expect(() => gqrPool(10, { poolSize: 0 })).toThrow('pool_size must be a whole number from 1 to 100000');
    expect(() => gqrPool(10, { poolSize: 2.5 })).toThrow('pool_size must be');
  });
});
