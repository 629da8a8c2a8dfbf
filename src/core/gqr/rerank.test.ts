import { describe, expect, it } from 'vitest';
import type { GqrConfig } from './config.ts';
import { mixtureInto, softmax } from './distributions.ts';
import type { GqrInput } from './input.ts';
import { gqrRerank, gqrRerankWithTrace } from './rerank.ts';

const doc = (id: string, score: number) => ({ id, score });

/** A small fixture where every path has something to do. */
const fixture: GqrInput = {
  primary: [doc('a', 0.82), doc('b', 0.8), doc('c', 0.5), doc('d', 0.3)],
  complementary: [doc('d', 14.2), doc('e', 12.5), doc('c', 9.1), doc('a', 3.0)],
  queryEmbedding: [0.9, 0.3, -0.2],
  candidateEmbeddings: new Map<string, number[]>([
    ['a', [1, 0.2, 0]],
    ['b', [0.8, 0.5, 0.1]],
    ['c', [0.3, 0.9, -0.4]],
    ['d', [0.1, 0.4, -0.9]],
    ['e', [-0.2, 0.8, -0.5]],
  ]),
  queryMultiEmbedding: [
    [0.9, 0.1, 0],
    [0.1, 0.2, -0.8],
  ],
  candidateMultiEmbeddings: new Map<string, number[][]>([
    ['a', [[1, 0, 0], [0, 0.3, 0.1]]],
    ['b', [[0.7, 0.2, 0.1]]],
    ['c', [[0.2, 0.9, 0], [0.1, 0, -0.6], [0.3, 0.3, 0.3]]],
    ['d', [[0, 0.1, -1]]],
    ['e', [[0.4, 0.4, -0.4], [0, 1, 0]]],
  ]),
};

describe('gqrRerankWithTrace', () => {
  const variants: [string, GqrInput, Partial<GqrConfig>][] = [
    ['cosine', fixture, {}],
    ['cosine, adam, fixed', fixture, { optimizer: 'adam', target: 'fixed', learningRate: 0.05 }],
    ['MaxSim', { ...fixture, primarySearchMode: 'multi' }, { nSteps: 40, learningRate: 0.3 }],
    ['score space', { ...fixture, queryEmbedding: null }, { temperature: 2 }],
    ['primary pool', fixture, { candidatePoolMode: 'primary', mixtureAlpha: 1 }],
    ['repeated primary id', { ...fixture, primary: [...fixture.primary, doc('a', 0.82)] }, { candidatePoolMode: 'primary' }],
  ];

  it.each(variants)('results equal gqrRerank (%s)', (_name, input, config) => {
    expect(gqrRerankWithTrace(input, 4, config).results).toEqual(gqrRerank(input, 4, config));
  });

  it('records the pool, path, distributions, ranks and losses consistently', () => {
    const { results, trace } = gqrRerankWithTrace(fixture, 3, { nSteps: 6 });
    expect(trace.pool).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(trace.path).toBe('single');
    expect(trace.scorer).toBe('single');
    expect(trace.steps).toBe(6);
    expect(trace.topK).toBe(3);
    expect(trace.config.nSteps).toBe(6);
    expect(trace.primaryFloor).toBeCloseTo(0.3 - 1, 15);
    expect(trace.complementaryFloor).toBeCloseTo(3.0 - 11.2, 12);
    expect(trace.complementaryScores).toEqual([3.0, trace.complementaryFloor, 9.1, 14.2, 12.5]);
    expect(trace.complementaryDistribution).toEqual(Array.from(softmax(trace.complementaryScores, 1)));
    expect(trace.primaryDistribution).toEqual(Array.from(softmax(trace.initialScores, 1)));
    expect(trace.finalDistribution).toEqual(Array.from(softmax(trace.finalScores, 1)));
    // ranks: one row per step 0 … N; the last row is the order of the results
    expect(trace.ranks).toHaveLength(7);
    expect(trace.losses).toHaveLength(6);
    const lastRanks = trace.ranks[6];
    expect(results.map((r) => lastRanks[trace.pool.indexOf(r.id)])).toEqual([1, 2, 3]);
    expect(trace.ranks[0][0]).toBe(1); // 'a' has the best initial cosine
    expect([...trace.ranks[0]].sort()).toEqual([1, 2, 3, 4, 5]);
    // the per-step target of the last step is a valid distribution between p and q
    expect(trace.targetDistribution.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 14);
  });

  it('fixed target: the traced target is the initial mixture', () => {
    const { trace } = gqrRerankWithTrace(fixture, 3, { target: 'fixed', mixtureAlpha: 0.3 });
    const expected = mixtureInto(trace.primaryDistribution, trace.complementaryDistribution, 0.3, new Float64Array(5));
    expect(trace.targetDistribution).toEqual(Array.from(expected));
  });

  it('traces an empty pool without steps', () => {
    const { results, trace } = gqrRerankWithTrace({ primary: [], complementary: [] }, 5);
    expect(results).toEqual([]);
    expect(trace.pool).toEqual([]);
    expect(trace.steps).toBe(0);
    expect(trace.ranks).toEqual([]);
    expect(trace.pathReason).toBe('candidate pool is empty');
  });
});

describe('gqrRerank', () => {
  it('returns [] for empty pools (as the reference)', () => {
    expect(gqrRerank({ primary: [], complementary: [] }, 5)).toEqual([]);
    expect(gqrRerank({ primary: [], complementary: [doc('x', 1)] }, 5, { candidatePoolMode: 'primary' })).toEqual([]);
  });

  it('union with an empty primary moves toward the complementary ranking', () => {
    // all primary scores are the floor −1 → p uniform; the logits move toward q's order
    const results = gqrRerank({ primary: [], complementary: [doc('x', 1), doc('y', 3)] }, 2);
    expect(results.map((r) => r.id)).toEqual(['y', 'x']);
  });

  it('treats non-finite child scores as missing (G3)', () => {
    const input: GqrInput = {
      primary: [doc('a', Number.NaN), doc('b', 2), doc('c', Number.POSITIVE_INFINITY), doc('d', 1)],
      complementary: [doc('a', -Infinity), doc('b', 5)],
    };
    const { results, trace } = gqrRerankWithTrace(input, 4);
    expect(trace.primaryFloor).toBe(0); // over {2, 1}: 1 − max(1, 1)
    expect(trace.primaryScores).toEqual([0, 2, 0, 1]);
    expect(trace.complementaryFloor).toBe(4); // over {5}: 5 − 1
    expect(trace.complementaryScores).toEqual([4, 5, 4, 4]);
    expect(results.every((r) => Number.isFinite(r.score))).toBe(true);
    expect(results.map((r) => r.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('uses score space for the whole pool when any candidate lacks an embedding', () => {
    const embeddings = new Map(fixture.candidateEmbeddings);
    embeddings.delete('e');
    const partial = { ...fixture, candidateEmbeddings: embeddings };
    const { results, trace } = gqrRerankWithTrace(partial, 5);
    expect(trace.path).toBe('score-space');
    expect(trace.pathReason).toBe('candidate e has no embedding');
    expect(results).toEqual(gqrRerank({ primary: fixture.primary, complementary: fixture.complementary }, 5));
    expect(gqrRerankWithTrace(fixture, 5).trace.path).toBe('single');
  });

  it('keeps pool order among tied scores', () => {
    // a zero query scores every candidate 0 and cannot move: primary order, then new complementary docs
    const input = { ...fixture, queryEmbedding: [0, 0, 0] };
    const results = gqrRerank(input, 5);
    expect(results.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(results.every((r) => r.score === 0)).toBe(true);
  });

  it('computes in float64 whatever the storage: Float32Array inputs equal their float64 copies', () => {
    const f32 = new Map([...fixture.candidateEmbeddings!].map(([id, v]) => [id, Float32Array.from(v)]));
    const f64 = new Map([...f32].map(([id, v]) => [id, Array.from(v)]));
    const query32 = Float32Array.from(fixture.queryEmbedding!);
    const a = gqrRerank({ ...fixture, queryEmbedding: query32, candidateEmbeddings: f32 }, 5);
    const b = gqrRerank({ ...fixture, queryEmbedding: Array.from(query32), candidateEmbeddings: f64 }, 5);
    expect(a).toEqual(b);
  });

  it('does not modify its inputs', () => {
    const query = [0.9, 0.3, -0.2];
    const multi = [[0.9, 0.1, 0]];
    gqrRerank({ ...fixture, queryEmbedding: query }, 3, { nSteps: 5 });
    gqrRerank({ ...fixture, queryMultiEmbedding: multi, primarySearchMode: 'multi' }, 3, { nSteps: 5 });
    expect(query).toEqual([0.9, 0.3, -0.2]);
    expect(multi).toEqual([[0.9, 0.1, 0]]);
  });

  it('reports each id once even when the primary repeats it', () => {
    const results = gqrRerank({ primary: [doc('a', 1), doc('b', 0.5), doc('a', 1)], complementary: [] }, 5, {
      candidatePoolMode: 'primary',
    });
    expect(results.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('truncates to topK and validates its arguments', () => {
    expect(gqrRerank(fixture, 2)).toHaveLength(2);
    expect(gqrRerank(fixture, 0)).toEqual([]);
    expect(gqrRerank(fixture, 50)).toHaveLength(5);
    expect(() => gqrRerank(fixture, -1)).toThrow('top_k must be a non-negative integer');
    expect(() => gqrRerank(fixture, 3, { temperature: 0 })).toThrow('temperature must be positive');
    expect(() => gqrRerankWithTrace(fixture, 3, { mixtureAlpha: 2 })).toThrow('mixture_alpha must be between 0 and 1');
  });
});
