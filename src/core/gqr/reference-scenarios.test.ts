// Every GQR scenario of the reference's test suite (test_gqr_hybrid_pipeline.py), named after its test functions;
// the behaviour they pin is described in docs/decisions.md#gqr-reference.
// Numbers are the reference's worked values. The Python tests stub child pipelines and optimizers; this pure core
// takes the children's result lists directly, so "stubbed optimizer was (not) called" becomes an assertion on the
// traced path. Scenarios 3 (get_pipeline_class) and 6 (pipeline_creation_with_names) concern loading child
// pipelines by name, which lives in the pipeline layer, not here.
import { describe, expect, it } from 'vitest';
import { alignScores, missingScoreFloor, scoreMap } from './candidate-pool.ts';
import { DEFAULT_GQR_CONFIG, gqrFetchK, resolveGqrConfig, type GqrConfig } from './config.ts';
import { klDivergence, softmax } from './distributions.ts';
import { gqrRerank, gqrRerankWithTrace } from './rerank.ts';
import { refineQuery, type RefineOptions } from './refine.ts';
import { CosineScorer, IdentityScorer, maxSimScores, MaxSimScorer } from './scorers.ts';

const TOL = 1e-9;
const doc = (id: string, score: number) => ({ id, score });
const refineOptions = (overrides: Partial<RefineOptions>): RefineOptions => ({ ...DEFAULT_GQR_CONFIG, ...overrides });

function expectClose(actual: ArrayLike<number>, expected: number[], tol = TOL): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(Math.abs(actual[i] - expected[i])).toBeLessThanOrEqual(tol);
}

describe('the reference\'s GQR scenarios', () => {
  it('1 maxsim_scores_hand_computed_example', () => {
    const scores = maxSimScores(
      [[1, 0], [0, 1]],
      [
        [[1, 0], [0.5, 0.5]],
        [[0, 0.25], [0.2, 0.8], [0.4, 0.1]],
      ],
    );
    // D1: (max(1, 0.5) + max(0, 0.5)) / 2 = 0.75; D2: (max(0, 0.2, 0.4) + max(0.25, 0.8, 0.1)) / 2 = 0.6
    expectClose(scores, [0.75, 0.6], 1e-12);
  });

  it('2 maxsim_gradient_matches_finite_difference_away_from_ties', () => {
    const candidate = [[0.9, 0], [0, 0.7]];
    const scorer = new MaxSimScorer([candidate], 2, 2);
    const theta = Float64Array.from([0.8, 0.1, 0.2, 0.9]);
    const score = new Float64Array(1);
    scorer.score(theta, score);
    expect(score[0]).toBeCloseTo(0.675, 12); // (0.72 + 0.63) / 2
    const grad = new Float64Array(4);
    scorer.backward(theta, Float64Array.from([1]), grad);
    expectClose(grad, [0.45, 0, 0, 0.35], 1e-15);
    const eps = 1e-6;
    for (let j = 0; j < 4; j++) {
      const plus = Float64Array.from(theta);
      const minus = Float64Array.from(theta);
      plus[j] += eps;
      minus[j] -= eps;
      const sPlus = new Float64Array(1);
      const sMinus = new Float64Array(1);
      scorer.score(plus, sPlus);
      scorer.score(minus, sMinus);
      expect(Math.abs((sPlus[0] - sMinus[0]) / (2 * eps) - grad[j])).toBeLessThan(1e-5);
    }
  });

  it('4 get_pipeline_kwargs', () => {
    const config = resolveGqrConfig({
      fetchKMultiplier: 3,
      nSteps: 10,
      learningRate: 0.3,
      temperature: 0.8,
      mixtureAlpha: 0.2,
      candidatePoolMode: 'union',
    });
    expect(config).toEqual<GqrConfig>({
      fetchKMultiplier: 3,
      nSteps: 10,
      learningRate: 0.3,
      temperature: 0.8,
      mixtureAlpha: 0.2,
      candidatePoolMode: 'union',
      scorerMode: 'auto',
      target: 'per-step',
      optimizer: 'gd',
    });
  });

  it('5 shipped_yaml_config_instantiates (defaults of the shipped gqr_hybrid.yaml)', () => {
    expect(resolveGqrConfig()).toMatchObject({
      fetchKMultiplier: 2,
      nSteps: 25,
      learningRate: 0.1,
      temperature: 1,
      mixtureAlpha: 0.5,
      candidatePoolMode: 'union',
      scorerMode: 'auto',
    });
  });

  const primary7 = [doc('1', 0.9), doc('2', 0.8)];
  const complementary7 = [doc('3', 10.0)];

  it('7 candidate_pool_mode_primary_keeps_primary_candidates_only', () => {
    const config = { candidatePoolMode: 'primary', nSteps: 5 } as const;
    expect(gqrFetchK(3, config)).toBe(6);
    const { results, trace } = gqrRerankWithTrace({ primary: primary7, complementary: complementary7 }, 3, config);
    expect(new Set(results.map((r) => r.id))).toEqual(new Set(['1', '2']));
    // complementary floor = 10 − max(1, 0) = 9 for both candidates → q = [0.5, 0.5]
    expect(trace.complementaryFloor).toBe(9);
    expectClose(trace.complementaryDistribution, [0.5, 0.5], 1e-15);
    expect(results.map((r) => r.id)).toEqual(['1', '2']);
    expectClose(results.map((r) => r.score), [0.8940590456, 0.8059409544]);
    expect(gqrRerank({ primary: primary7, complementary: complementary7 }, 3, config)).toEqual(results);
  });

  it('8 candidate_pool_mode_union_includes_complementary_candidates', () => {
    const { results, trace } = gqrRerankWithTrace({ primary: primary7, complementary: complementary7 }, 3, {
      candidatePoolMode: 'union',
      nSteps: 5,
    });
    expect(trace.pool).toEqual(['1', '2', '3']);
    expectClose(trace.primaryScores, [0.9, 0.8, -0.2], 1e-15); // floor 0.8 − 1
    expectClose(trace.complementaryScores, [9, 9, 10], 0);
    expectClose(trace.complementaryDistribution, [0.21194, 0.21194, 0.57612], 1e-5);
    expect(results.map((r) => r.id)).toEqual(['1', '2', '3']);
    expectClose(results.map((r) => r.score), [0.8425730835, 0.7526673793, -0.0952404628]);
  });

  it('9 embedding_level_refinement_reranks_with_guidance', () => {
    const config = { candidatePoolMode: 'primary', mixtureAlpha: 1.0, nSteps: 50, learningRate: 0.5, temperature: 0.5 } as const;
    const input = {
      primary: [doc('1', 0.9), doc('2', 0.1)],
      complementary: [doc('2', 10.0), doc('1', 0.1)],
      queryEmbedding: [1, 0],
      candidateEmbeddings: new Map([
        ['1', [1, 0]],
        ['2', [0, 1]],
      ]),
    };
    const { results, trace } = gqrRerankWithTrace(input, 2, config);
    expect(trace.path).toBe('single');
    expect(results[0].id).toBe('2');
    // q = softmax([0.1, 10] / 0.5) = [2.5175e-9, 1 − 2.5e-9]
    expect(trace.complementaryDistribution[0]).toBeCloseTo(2.5175e-9, 13);
    expect(Math.abs(trace.complementaryDistribution[1] - (1 - 2.5175e-9))).toBeLessThan(1e-13);
    const byId = new Map(results.map((r) => [r.id, r.score]));
    expect(Math.abs((byId.get('1') as number) - -0.616090409)).toBeLessThan(TOL);
    expect(Math.abs((byId.get('2') as number) - 0.7876754458)).toBeLessThan(TOL);

    const z = Float64Array.from([1, 0]);
    const q = softmax([0.1, 10], 0.5);
    refineQuery(new CosineScorer([[1, 0], [0, 1]], 2), z, q, refineOptions(config));
    expectClose(z, [-0.92654, 1.18458], 1e-5);
  });

  it('10 partial_candidate_embeddings_use_score_space_for_whole_pool', () => {
    const base = { primary: [doc('1', 0.9)], complementary: [doc('2', 8.0)] };
    const withPartial = { ...base, queryEmbedding: [1, 0], candidateEmbeddings: new Map([['1', [1, 0]]]) };
    const { results, trace } = gqrRerankWithTrace(withPartial, 2, { candidatePoolMode: 'union', nSteps: 5 });
    expect(trace.path).toBe('score-space');
    expect(trace.pathReason).toBe('candidate 2 has no embedding');
    // The cosine path never ran: the scores are exactly the score-space run's, for both candidates.
    expect(results).toEqual(gqrRerank(base, 2, { candidatePoolMode: 'union', nSteps: 5 }));
    expectClose(trace.initialScores, [0.9, -0.1], 1e-15); // s1 = [0.9, floor 0.9 − max(1, 0)]
  });

  it('11 retrieve_by_text_uses_score_space_when_embedding_model_missing', () => {
    const config = { candidatePoolMode: 'primary', nSteps: 10 } as const;
    expect(gqrFetchK(2, config)).toBe(4);
    const input = { primary: [doc('1', 0.9), doc('2', 0.1)], complementary: [doc('2', 8.0), doc('1', 0.2)] };
    const { results, trace } = gqrRerankWithTrace(input, 2, config);
    expect(trace.path).toBe('score-space');
    expectClose(trace.complementaryDistribution, Array.from(softmax([0.2, 8], 1)), 0);
    expect(results.map((r) => r.id)).toEqual(['1', '2']);
    expectClose(results.map((r) => r.score), [0.5885628157, 0.4114371843]);
  });

  it('12 score_space_target_moves_with_primary_distribution_each_step', () => {
    const q = Float64Array.from([0.1, 0.9]);
    const { scores } = refineQuery(
      new IdentityScorer(2),
      Float64Array.from([4, 0]),
      q,
      refineOptions({ mixtureAlpha: 0.5, nSteps: 600, learningRate: 1.0, temperature: 1.0 }),
    );
    expectClose(scores, [0.9013877113, 3.0986122887]);
    const d = softmax(scores, 1);
    const p0 = softmax([4, 0], 1);
    const fixedBlend = [0.5 * p0[0] + 0.05, 0.5 * p0[1] + 0.45];
    expectClose(fixedBlend, [0.5410069, 0.4589931], 1e-7);
    expect(Math.hypot(d[0] - q[0], d[1] - q[1])).toBeLessThan(0.05);
    expect(Math.hypot(d[0] - fixedBlend[0], d[1] - fixedBlend[1])).toBeGreaterThan(0.25);
    expect(Math.hypot(d[0] - fixedBlend[0], d[1] - fixedBlend[1])).toBeCloseTo(0.62368, 5);
  });

  it('13 maxsim_optimization_moves_distribution_toward_complementary', () => {
    const q = Float64Array.from([0.1, 0.9]);
    const scorer = new MaxSimScorer(
      [
        [[1, 0], [0, 0.1]],
        [[0.1, 0], [0, 1]],
      ],
      2,
      2,
    );
    const theta = Float64Array.from([1, 0, 0, 1]);
    const initial = new Float64Array(2);
    scorer.score(theta, initial);
    expectClose(initial, [0.55, 0.55], 1e-15);
    const d0 = softmax(initial, 1);
    const { scores } = refineQuery(
      scorer,
      theta,
      q,
      refineOptions({ mixtureAlpha: 1.0, nSteps: 300, learningRate: 0.8, temperature: 1.0 }),
    );
    expectClose(scores, [0.2441191701, 2.4411917012]);
    const dFinal = softmax(scores, 1);
    expectClose(dFinal, [0.100014, 0.899986], 1e-6);
    const klFinal = klDivergence(q, dFinal);
    const klInitial = klDivergence(q, d0);
    expect(klFinal).toBeLessThan(klInitial);
    expect(klInitial).toBeCloseTo(0.368064, 6);
    expect(Math.abs(klFinal - 1.04e-9)).toBeLessThan(0.01e-9);
  });

  const primary14 = [doc('1', 0.9), doc('2', 0.1)];
  const complementary14 = [doc('2', 10.0), doc('1', 0.1)];

  it('14 auto_mode_uses_multi_path_for_multi_primary', () => {
    const input = {
      primary: primary14,
      complementary: complementary14,
      primarySearchMode: 'multi' as const,
      queryEmbedding: null,
      queryMultiEmbedding: [[1, 0]],
      candidateMultiEmbeddings: new Map([
        ['1', [[1, 0]]],
        ['2', [[0, 1]]],
      ]),
    };
    const { results, trace } = gqrRerankWithTrace(input, 2, { scorerMode: 'auto', candidatePoolMode: 'primary' });
    expect(trace.scorer).toBe('multi');
    expect(trace.path).toBe('multi');
    expect(results.map((r) => r.id)).toEqual(['2', '1']);
    // With one query vector and one-hot documents, MaxSim is the identity on z: the run equals score space from [1, 0].
    const { scores } = refineQuery(new IdentityScorer(2), Float64Array.from([1, 0]), softmax([0.1, 10], 1), refineOptions({}));
    expectClose(trace.finalScores, Array.from(scores), 1e-15);
  });

  it('15 multi_mode_missing_candidate_embeddings_falls_back_to_score_space', () => {
    const input = {
      primary: primary14,
      complementary: complementary14,
      primarySearchMode: 'multi' as const,
      queryMultiEmbedding: [[1, 0]],
      candidateMultiEmbeddings: new Map([['1', [[1, 0]]]]),
    };
    const { results, trace } = gqrRerankWithTrace(input, 2, { scorerMode: 'multi', candidatePoolMode: 'primary' });
    expect(trace.path).toBe('score-space');
    expect(trace.pathReason).toBe('candidate 2 has no multi-vector embedding');
    expectClose(trace.initialScores, [0.9, 0.1], 0);
    expect(results.map((r) => r.id)).toEqual(['2', '1']);
  });

  it('16 raw_score_scale_changes_softmax_distribution', () => {
    const low = scoreMap([doc('1', 2), doc('2', 1)]);
    const high = scoreMap([doc('1', 20), doc('2', 10)]);
    const lowVector = alignScores(['1', '2'], low, missingScoreFloor(low));
    const highVector = alignScores(['1', '2'], high, missingScoreFloor(high));
    expectClose(lowVector, [2, 1], 0);
    expectClose(highVector, [20, 10], 0);
    const pLow = softmax(lowVector, 1);
    const pHigh = softmax(highVector, 1);
    expect(pLow[0]).toBeCloseTo(0.7310586, 7);
    expect(pHigh[0]).toBeCloseTo(0.9999546, 7);
    expect(pHigh[0]).toBeGreaterThan(pLow[0]);
  });

  it('17 retrieve_by_text_falls_back_to_complementary_when_primary_needs_embedding', () => {
    // The pipeline layer substitutes the complementary list for the failed primary; the core then sees p = q.
    expect(gqrFetchK(2, { candidatePoolMode: 'union', nSteps: 10 })).toBe(4);
    const complementary = [doc('2', 8.0), doc('1', 0.2)];
    const results = gqrRerank({ primary: complementary, complementary }, 2, { candidatePoolMode: 'union', nSteps: 10 });
    expect(results).toEqual([doc('2', 8.0), doc('1', 0.2)]);
  });
});
