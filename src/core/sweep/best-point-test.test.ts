import { describe, expect, it } from 'vitest';
import { pairedRandomizationTest } from '../eval/index.ts';
import type { SweepEvaluation, SweepRunScores } from './evaluate-sweep.ts';
import { testBestPoint } from './best-point-test.ts';

const M = 'nDCG@10';
const scores = (values: number[], keep = true): SweepRunScores => {
  const perQuery = Object.fromEntries(values.map((v, i) => [`q${i + 1}`, { [M]: v }]));
  return { aggregate: { [M]: values.reduce((s, v) => s + v, 0) / values.length }, perQuery: keep ? perQuery : {}, versusPrimary: {} };
};

// Eight queries: the best point beats RRF on most of them and is close to CC w=0.3.
const point = scores([0.9, 0.8, 0.7, 0.9, 0.6, 0.8, 0.7, 0.5]);
const rrf = scores([0.5, 0.4, 0.6, 0.3, 0.5, 0.4, 0.7, 0.4]);
const cc3 = scores([0.9, 0.7, 0.7, 0.8, 0.6, 0.9, 0.6, 0.5]);
const cc7 = scores([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]);

function evaluation(keepCc = true): SweepEvaluation {
  return {
    measures: [M],
    evaluatedQueries: 8,
    points: [
      { pointId: 'p0', pathCounts: { single: 8, multi: 0, 'score-space': 0 }, ...scores([0, 0, 0, 0, 0, 0, 0, 0]) },
      { pointId: 'p1', pathCounts: { single: 8, multi: 0, 'score-space': 0 }, ...point },
    ],
    baselines: { primary: scores([0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]), complementary: scores([0, 0, 0, 0, 0, 0, 0, 0]), rrf },
    cc: [
      { weight: 0.3, ...(keepCc ? cc3 : { ...cc3, perQuery: {} }) },
      { weight: 0.7, ...cc7 },
    ],
    bestPoint: { [M]: { value: point.aggregate[M]!, at: 'p1' } },
    bestCc: { [M]: { value: cc3.aggregate[M]!, at: 0.3 } },
  };
}

describe('testBestPoint', () => {
  it('tests the best point against RRF and the best CC weight over the paired queries, with Holm over the two', () => {
    const test = testBestPoint(evaluation(), M, { permutations: 2000, seed: 7 })!;
    expect(test).toMatchObject({ measure: M, pointId: 'p1', permutations: 2000, seed: 7, alpha: 0.05, untested: [] });
    const [vsRrf, vsCc] = test.comparisons;
    // differences written out by hand: point − RRF and point − CC w=0.3, query by query
    const dRrf = [0.4, 0.4, 0.1, 0.6, 0.1, 0.4, 0, 0.1];
    const dCc = [0, 0.1, 0, 0.1, 0, -0.1, 0.1, 0];
    expect(vsRrf).toMatchObject({ baseline: 'rrf', wins: 7, ties: 1, losses: 0 });
    expect(vsCc).toMatchObject({ baseline: 'cc', weight: 0.3, wins: 3, ties: 4, losses: 1 });
    expect(vsRrf!.delta).toBeCloseTo(dRrf.reduce((s, d) => s + d, 0) / 8, 12);
    expect(vsCc!.delta).toBeCloseTo(0.025, 12);
    expect(vsRrf!.baselineValue).toBeCloseTo(0.475, 12);
    const pRrf = pairedRandomizationTest(dRrf, { permutations: 2000, seed: 7 });
    const pCc = pairedRandomizationTest(dCc, { permutations: 2000, seed: 7 });
    expect(vsRrf!.pValue).toBeCloseTo(pRrf, 12);
    expect(vsCc!.pValue).toBeCloseTo(pCc, 12);
    // 8 positive-or-zero differences: only the all-positive assignments (and their mirror) are as extreme
    expect(pRrf).toBeLessThan(0.05);
    expect(pCc).toBeGreaterThan(0.3);
    expect(vsRrf!.holmP).toBeCloseTo(Math.min(1, 2 * pRrf), 12);
    expect(vsCc!.holmP).toBeCloseTo(Math.max(Math.min(1, 2 * pRrf), pCc), 12);
    expect([vsRrf!.significant, vsCc!.significant]).toEqual([vsRrf!.holmP <= 0.05, false]);
  });

  it('says which baseline could not be tested when its per-query values are not kept', () => {
    const test = testBestPoint(evaluation(false), M)!;
    expect(test.comparisons.map((c) => c.baseline)).toEqual(['rrf']);
    expect(test.comparisons[0]!.holmP).toBe(test.comparisons[0]!.pValue);
    expect(test.untested).toEqual([{ baseline: 'cc', reason: expect.stringContaining('CC w=0.3 are not stored') }]);
    expect(testBestPoint(evaluation(), 'AP')).toBeNull();
  });
});
