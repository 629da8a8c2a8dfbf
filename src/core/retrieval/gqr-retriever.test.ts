import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Bm25Index } from '../bm25/index.ts';
import type { CorpusDocument } from '../corpus/index.ts';
import { MultiVectorStore, VectorMatrix } from '../dense/index.ts';
import { loadEmbedder, type Embedder } from '../embedding/index.ts';
import { DEFAULT_GQR_CONFIG } from '../gqr/index.ts';
import { buildRetriever } from './build-retriever.ts';
import { CompactVectors } from '../dense/index.ts';
import { DenseRetriever } from './dense-retriever.ts';
import { Bm25Retriever } from './bm25-retriever.ts';
import { GqrRetriever, gqrGeometryOf, type GqrGeometry } from './gqr-retriever.ts';
import type { Retriever } from './retriever.ts';
import type { ScoredDoc } from '../ranking/index.ts';

const doc = (id: string, score: number): ScoredDoc => ({ id, score });
const TOL = 1e-9;

class EmbeddingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

/** A child retriever returning a fixed list (or throwing), recording its calls. */
function fixedRetriever(name: string, answer: ScoredDoc[] | Error): Retriever & { calls: [string, number][] } {
  const calls: [string, number][] = [];
  return {
    pipeline: name,
    config: { fixed: true },
    calls,
    async search(text: string, k: number) {
      calls.push([text, k]);
      if (answer instanceof Error) throw answer;
      return answer.slice(0, k);
    },
  };
}

/** A hand-built geometry: fixed query vectors and document vectors. */
function fixedGeometry(options: {
  query?: number[] | Error;
  vectors?: Record<string, number[]>;
  searchMode?: 'single' | 'multi';
  queryTokens?: number[][];
  tokenVectors?: Record<string, number[][]>;
}): GqrGeometry {
  return {
    searchMode: options.searchMode ?? 'single',
    async embedQuery() {
      if (options.query instanceof Error) throw options.query;
      return options.query ?? [];
    },
    embedQueryTokens: options.queryTokens ? async () => options.queryTokens! : undefined,
    async documentVectors(ids) {
      return new Map(ids.filter((id) => options.vectors?.[id]).map((id) => [id, options.vectors![id]]));
    },
    documentTokenVectors: options.tokenVectors
      ? async (ids) => new Map(ids.filter((id) => options.tokenVectors![id]).map((id) => [id, options.tokenVectors![id]]))
      : undefined,
  };
}

function expectScores(results: ScoredDoc[], expected: [string, number][]): void {
  expect(results.map((r) => r.id)).toEqual(expected.map(([id]) => id));
  results.forEach((r, i) => expect(Math.abs(r.score - expected[i][1])).toBeLessThanOrEqual(TOL));
}

describe('GqrRetriever with hand-built children (the reference\'s by-text path and GQR scenarios)', () => {
  it('scenario 17: a primary that cannot embed is replaced by the complementary list; both are called once with fetch_k', async () => {
    const primary = fixedRetriever('dense', new EmbeddingError('no embedding model'));
    const complementary = fixedRetriever('bm25', [doc('2', 8.0), doc('1', 0.2)]);
    const gqr = new GqrRetriever({ primary, complementary, config: { candidatePoolMode: 'union', nSteps: 10 } });
    const outcome = await gqr.searchWithOutcome('ad hoc query', 2);
    expect(primary.calls).toEqual([['ad hoc query', 4]]);
    expect(complementary.calls).toEqual([['ad hoc query', 4]]);
    // p = q from the start, so the score-space run leaves the complementary scores as they are.
    expectScores(outcome.results, [
      ['2', 8.0],
      ['1', 0.2],
    ]);
    expect(outcome.children).toBe('complementary-for-primary');
    expect(outcome.path).toBe('score-space');
    expect(outcome.notes[0]).toBe('The primary could not embed the query (no embedding model); the complementary list stands in for it.');
    expect(gqr.config.pathsTaken).toEqual({ single: 0, multi: 0, 'score-space': 1, childStandIns: 1 });
  });

  it('scenario 11: a primary without an embedding model takes the score-space path', async () => {
    const primary = fixedRetriever('bm25-as-primary', [doc('1', 0.9), doc('2', 0.1)]);
    const complementary = fixedRetriever('bm25', [doc('2', 8.0), doc('1', 0.2)]);
    const gqr = new GqrRetriever({ primary, complementary, config: { candidatePoolMode: 'primary', nSteps: 10 } });
    const outcome = await gqr.searchWithOutcome('ad hoc query', 2);
    expectScores(outcome.results, [
      ['1', 0.5885628157],
      ['2', 0.4114371843],
    ]);
    expect(outcome.path).toBe('score-space');
    expect(outcome.pathReason).toBe('no query embedding');
    expect(outcome.notes).toEqual(['The primary has no embedding model, so GQR refines its scores directly (score space).']);
    expect(await gqr.search('ad hoc query', 2)).toEqual(outcome.results);
    // a saved run's configuration says which paths its queries took
    expect(gqr.config.pathsTaken).toEqual({ single: 0, multi: 0, 'score-space': 2, childStandIns: 0 });
  });

  it('a complementary that cannot embed is replaced by the primary list', async () => {
    const primary = fixedRetriever('p', [doc('1', 0.9), doc('2', 0.1)]);
    const complementary = fixedRetriever('c', new EmbeddingError('no model'));
    const gqr = new GqrRetriever({ primary, complementary });
    const outcome = await gqr.searchWithOutcome('q', 2);
    expect(outcome.children).toBe('primary-for-complementary');
    // p = q: the raw primary scores come back unchanged.
    expectScores(outcome.results, [
      ['1', 0.9],
      ['2', 0.1],
    ]);
  });

  it('other child errors propagate', async () => {
    const primary = fixedRetriever('p', new Error('disk on fire'));
    const gqr = new GqrRetriever({ primary, complementary: fixedRetriever('c', []) });
    await expect(gqr.search('q', 2)).rejects.toThrow('disk on fire');
    const gqr2 = new GqrRetriever({ primary: fixedRetriever('p', []), complementary: fixedRetriever('c', new TypeError('bad')) });
    await expect(gqr2.search('q', 2)).rejects.toThrow('bad');
  });

  it('scenario 9: the cosine path refines the query embedding toward the complementary ranking', async () => {
    const gqr = new GqrRetriever({
      primary: fixedRetriever('p', [doc('1', 0.9), doc('2', 0.1)]),
      complementary: fixedRetriever('c', [doc('2', 10.0), doc('1', 0.1)]),
      geometry: fixedGeometry({ query: [1, 0], vectors: { '1': [1, 0], '2': [0, 1] } }),
      config: { candidatePoolMode: 'primary', mixtureAlpha: 1, nSteps: 50, learningRate: 0.5, temperature: 0.5 },
    });
    const outcome = await gqr.searchWithOutcome('q', 2);
    expect(outcome.path).toBe('single');
    expect(outcome.pathReason).toBe('query and all 2 candidates have single-vector embeddings');
    expectScores(outcome.results, [
      ['2', 0.7876754458],
      ['1', -0.616090409],
    ]);
  });

  it('scenario 10: one candidate without an embedding sends the whole pool to score space', async () => {
    const geometry = fixedGeometry({ query: [1, 0], vectors: { '1': [1, 0] } });
    const documentVectors = vi.spyOn(geometry, 'documentVectors');
    const gqr = new GqrRetriever({
      primary: fixedRetriever('p', [doc('1', 0.9)]),
      complementary: fixedRetriever('c', [doc('2', 8.0)]),
      geometry,
      config: { candidatePoolMode: 'union', nSteps: 5 },
    });
    const outcome = await gqr.searchWithOutcome('q', 2);
    expect(documentVectors).toHaveBeenCalledWith(['1', '2']);
    expect(outcome.path).toBe('score-space');
    expect(outcome.pathReason).toBe('candidate 2 has no embedding');
  });

  it('a geometry that cannot embed the query gives score space with a note; other embedding errors propagate', async () => {
    const gqr = new GqrRetriever({
      primary: fixedRetriever('p', [doc('1', 0.9), doc('2', 0.1)]),
      complementary: fixedRetriever('c', [doc('2', 8.0), doc('1', 0.2)]),
      geometry: fixedGeometry({ query: new EmbeddingError('model missing'), vectors: { '1': [1, 0], '2': [0, 1] } }),
      config: { candidatePoolMode: 'primary', nSteps: 10 },
    });
    const outcome = await gqr.searchWithOutcome('q', 2);
    expect(outcome.path).toBe('score-space');
    expect(outcome.notes).toEqual(['The primary could not embed the query (model missing).']);
    expectScores(outcome.results, [
      ['1', 0.5885628157],
      ['2', 0.4114371843],
    ]);
    const broken = new GqrRetriever({
      primary: fixedRetriever('p', [doc('1', 0.9)]),
      complementary: fixedRetriever('c', []),
      geometry: fixedGeometry({ query: new RangeError('tensor shape') }),
    });
    await expect(broken.search('q', 1)).rejects.toThrow('tensor shape');
  });

  it('MaxSim path for a multi-vector primary (scenario 13 numbers, through the retriever)', async () => {
    const gqr = new GqrRetriever({
      primary: fixedRetriever('p', [doc('1', 0.55), doc('2', 0.55)]),
      // softmax([0, ln 9]) = [0.1, 0.9]
      complementary: fixedRetriever('c', [doc('2', Math.log(9)), doc('1', 0)]),
      geometry: fixedGeometry({
        searchMode: 'multi',
        queryTokens: [
          [1, 0],
          [0, 1],
        ],
        tokenVectors: {
          '1': [
            [1, 0],
            [0, 0.1],
          ],
          '2': [
            [0.1, 0],
            [0, 1],
          ],
        },
      }),
      config: { candidatePoolMode: 'primary', mixtureAlpha: 1, nSteps: 300, learningRate: 0.8, temperature: 1 },
    });
    const outcome = await gqr.searchWithOutcome('q', 2);
    expect(outcome.path).toBe('multi');
    expectScores(outcome.results, [
      ['2', 2.4411917012],
      ['1', 0.2441191701],
    ]);
  });

  it('a multi-vector primary that cannot embed query tokens falls back to score space and says so', async () => {
    const gqr = new GqrRetriever({
      primary: fixedRetriever('p', [doc('1', 0.9), doc('2', 0.1)]),
      complementary: fixedRetriever('c', [doc('2', 8.0), doc('1', 0.2)]),
      geometry: fixedGeometry({ searchMode: 'multi', tokenVectors: { '1': [[1, 0]], '2': [[0, 1]] } }),
      config: { candidatePoolMode: 'primary', nSteps: 10 },
    });
    const outcome = await gqr.searchWithOutcome('q', 2);
    expect(outcome.path).toBe('score-space');
    expect(outcome.pathReason).toBe('no query multi-vector embedding');
    expect(outcome.notes).toEqual(['The primary cannot embed the query token by token, so MaxSim cannot run.']);
  });

  it('asks each child for topK × fetchKMultiplier and records its whole configuration', async () => {
    const primary = fixedRetriever('dense', []);
    const complementary = fixedRetriever('bm25', []);
    const gqr = new GqrRetriever({ primary, complementary, config: { fetchKMultiplier: 3, mixtureAlpha: 0.2 } });
    expect(await gqr.search('q', 3)).toEqual([]);
    expect(primary.calls).toEqual([['q', 9]]);
    expect(complementary.calls).toEqual([['q', 9]]);
    expect(gqr.config).toMatchObject({
      fetchKMultiplier: 3,
      mixtureAlpha: 0.2,
      nSteps: 25,
      target: 'per-step',
      optimizer: 'gd',
      primary: { pipeline: 'dense', fixed: true },
      complementary: { pipeline: 'bm25', fixed: true },
      primarySearchMode: null,
      resolvedScorer: 'single',
    });
    expect(() => new GqrRetriever({ primary, complementary, config: { temperature: 0 } })).toThrow('temperature must be positive');
  });

  it('the trace agrees with the outcome', async () => {
    const gqr = new GqrRetriever({
      primary: fixedRetriever('p', [doc('1', 0.9), doc('2', 0.1)]),
      complementary: fixedRetriever('c', [doc('2', 10.0), doc('1', 0.1)]),
      geometry: fixedGeometry({ query: [1, 0], vectors: { '1': [1, 0], '2': [0, 1] } }),
      config: { candidatePoolMode: 'primary', mixtureAlpha: 1, nSteps: 50, learningRate: 0.5, temperature: 0.5 },
    });
    const traced = await gqr.searchWithTrace('q', 2);
    expect(traced.results).toEqual((await gqr.searchWithOutcome('q', 2)).results);
    expect(traced.trace.pool).toEqual(['1', '2']);
    expect(traced.trace.ranks[0]).toEqual([1, 2]);
    expect(traced.trace.ranks[50]).toEqual([2, 1]);
  });
});

// Real inference: the tiny BERT generated by scripts/make-tiny-model.mjs, through transformers.js (onnxruntime-node).
describe('GqrRetriever over a real dense primary (tiny-bert) and BM25', () => {
  const script = fileURLToPath(new URL('../../../scripts/make-tiny-model.mjs', import.meta.url));
  let modelRoot: string;
  let embedder: Embedder;
  const docs: CorpusDocument[] = [
    ['d1', 'Lighthouse keepers', 'The keeper climbed the tower and lit the lamp during the storm.'],
    ['d2', 'Salt marshes', 'Seawater was boiled in pans on the marsh to make salt.'],
    ['d3', 'Canal locks', 'Engineers built locks so that boats could climb the hill.'],
    ['d4', 'Tea trade', 'Ships brought tea to the port and merchants sold it inland.'],
    ['d5', 'Storm of the century', 'A great storm wrecked ships along the coast and the lighthouse saved sailors.'],
    ['d6', 'Clockmakers', 'The clockmakers of the town made fine clocks and watches.'],
    ['d7', 'Railway', 'The railway reached the town and the station opened.'],
    ['d8', 'Festivals', 'Each summer the coast celebrates with music and boats.'],
  ].map(([id, title, text]) => ({ id, title, text, metadata: {} }));
  let matrix: VectorMatrix;
  let tokens: MultiVectorStore;
  let bm25: Bm25Retriever;

  beforeAll(async () => {
    modelRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-gqr-model-'));
    execFileSync(process.execPath, [script, path.join(modelRoot, 'tiny-bert')], { stdio: 'pipe' });
    embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: modelRoot });
    matrix = new VectorMatrix({ model: embedder.info });
    tokens = new MultiVectorStore({ model: embedder.tokenInfo });
    await embedder.embedDocuments(docs, { onBatch: (batch) => matrix.addBatch(batch.ids, batch.vectors) });
    await embedder.embedDocumentTokens(docs, { onBatch: (batch) => batch.ids.forEach((id, i) => tokens.add(id, batch.embeddings[i])) });
    const index = Bm25Index.create();
    index.addAll(docs);
    bm25 = new Bm25Retriever(index);
  });

  afterAll(async () => {
    await embedder?.dispose();
    if (modelRoot) fs.rmSync(modelRoot, { recursive: true, force: true });
  });

  const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let j = 0; j < a.length; j++) {
      dot += a[j] * b[j];
      na += a[j] * a[j];
      nb += b[j] * b[j];
    }
    return dot / Math.sqrt(na * nb);
  };

  it('takes the cosine path, embedding the query and every candidate of the union pool', async () => {
    const dense = new DenseRetriever({ matrix, embedder });
    const gqr = new GqrRetriever({ primary: dense, complementary: bm25, geometry: gqrGeometryOf(dense), config: { fetchKMultiplier: 2 } });
    const prepared = await gqr.prepare('storm at the lighthouse', 3);
    expect(prepared.fetchK).toBe(6);
    expect(prepared.input.primary.map((d) => d.id)).toEqual((await dense.search('storm at the lighthouse', 6)).map((d) => d.id));
    expect(prepared.input.complementary).toEqual(await bm25.search('storm at the lighthouse', 6));
    const pool = new Set([...prepared.input.primary, ...prepared.input.complementary].map((d) => d.id));
    expect(new Set(prepared.input.candidateEmbeddings!.keys())).toEqual(pool);
    // the vectors are the stored ones, copied out of the store
    for (const id of pool) {
      expect(Array.from(prepared.input.candidateEmbeddings!.get(id)!)).toEqual(Array.from(matrix.vectorOf(id)!));
      expect((prepared.input.candidateEmbeddings!.get(id) as Float32Array).buffer.byteLength).toBe(4 * 32);
    }
    const outcome = await gqr.searchWithOutcome('storm at the lighthouse', 3);
    expect(outcome.path).toBe('single');
    expect(outcome.results).toHaveLength(3);
  });

  it('over the int8 form searched certified exact, refines with the float32 rows and gives the float32 results', async () => {
    const exactPrimary = new DenseRetriever({ matrix, embedder });
    const compactOnly = new DenseRetriever({ compact: CompactVectors.fromMatrix(matrix), embedder }, { vectorForm: 'int8-exact' });
    const run = (primary: DenseRetriever) =>
      new GqrRetriever({ primary, complementary: bm25, geometry: gqrGeometryOf(primary), config: { fetchKMultiplier: 2 } }).searchWithOutcome('storm at the lighthouse', 3);
    const [reference, certified] = await Promise.all([run(exactPrimary), run(compactOnly)]);
    expect(certified.path).toBe('single');
    expect(certified.results).toEqual(reference.results);
  });

  it('a dense primary whose model fails on the query is replaced by BM25 (the live EmbeddingError path)', async () => {
    const broken = {
      info: embedder.info,
      embedQuery: async () => {
        throw new Error('out of memory');
      },
      embedQueryTokens: async () => {
        throw new Error('out of memory');
      },
    };
    const dense = new DenseRetriever({ matrix, embedder: broken });
    const gqr = new GqrRetriever({ primary: dense, complementary: bm25, geometry: gqrGeometryOf(dense) });
    const outcome = await gqr.searchWithOutcome('storm at the lighthouse', 3);
    expect(outcome.children).toBe('complementary-for-primary');
    expect(outcome.results.map((d) => d.id)).toEqual((await bm25.search('storm at the lighthouse', 3)).map((d) => d.id));
  });

  it('α = 0 leaves the query unchanged: the results are the dense top-k with their cosine scores', async () => {
    const dense = new DenseRetriever({ matrix, embedder });
    const gqr = new GqrRetriever({ primary: dense, complementary: bm25, geometry: gqrGeometryOf(dense), config: { mixtureAlpha: 0 } });
    const text = 'boats on the canal';
    const results = await gqr.search(text, 4);
    const expected = await dense.search(text, 4);
    expect(results.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    const query = (await embedder.embedQuery(text)).vector;
    results.forEach((r) => expect(r.score).toBeCloseTo(cosine(query, matrix.vectorOf(r.id)!), 6));
  });

  it('α = 1 with many steps moves the dense ranking toward BM25', async () => {
    const dense = new DenseRetriever({ matrix, embedder });
    const text = 'salt from seawater';
    const gqr = new GqrRetriever({
      primary: dense,
      complementary: bm25,
      geometry: gqrGeometryOf(dense),
      config: { mixtureAlpha: 1, nSteps: 400, learningRate: 2, candidatePoolMode: 'union' },
    });
    const { trace } = await gqr.searchWithTrace(text, 4);
    expect(trace.path).toBe('single');
    // The loss KL(target ‖ p) falls as the refined query approaches the BM25 distribution.
    expect(trace.losses[trace.losses.length - 1]).toBeLessThan(trace.losses[0]);
  });

  it('takes the MaxSim path for a multi-vector dense primary', async () => {
    const dense = new DenseRetriever({ matrix, embedder, tokens: async () => tokens }, { searchMode: 'multi' });
    const gqr = new GqrRetriever({ primary: dense, complementary: bm25, geometry: gqrGeometryOf(dense), config: { mixtureAlpha: 0 } });
    const text = 'clocks and watches';
    const prepared = await gqr.prepare(text, 2);
    expect(prepared.input.primarySearchMode).toBe('multi');
    expect(prepared.input.queryEmbedding).toBeUndefined();
    const queryTokens = await embedder.embedQueryTokens(text);
    expect(prepared.input.queryMultiEmbedding).toHaveLength(queryTokens.count);
    const outcome = await gqr.searchWithOutcome(text, 2);
    expect(outcome.path).toBe('multi');
    // α = 0: no update, so the results are the MaxSim top-2 with their MaxSim scores
    const expected = await dense.search(text, 2);
    expect(outcome.results.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    outcome.results.forEach((r, i) => expect(r.score).toBeCloseTo(expected[i].score, 6));
  });

  it('buildRetriever builds the primary first, then the complementary (as the reference)', async () => {
    const order: string[] = [];
    const index = Bm25Index.create();
    index.addAll(docs);
    const retriever = await buildRetriever(
      {
        kind: 'gqr',
        primary: { kind: 'dense', modelKey: 'tiny' },
        complementary: { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } },
        config: { ...DEFAULT_GQR_CONFIG, mixtureAlpha: 0.3 },
      },
      {
        bm25Index: async () => (order.push('bm25'), index),
        denseIndex: async (modelKey) => (order.push(`dense ${modelKey}`), { matrix, embedder }),
      },
    );
    expect(order).toEqual(['dense tiny', 'bm25']);
    expect(retriever).toBeInstanceOf(GqrRetriever);
    expect(retriever.config).toMatchObject({ mixtureAlpha: 0.3, primary: { pipeline: 'dense' }, complementary: { pipeline: 'bm25' }, primarySearchMode: 'single' });
    expect((await (retriever as GqrRetriever).searchWithOutcome('the lighthouse', 3)).path).toBe('single');
  });

  it('a BM25 primary has no geometry', () => {
    expect(gqrGeometryOf(bm25)).toBeNull();
  });
});
