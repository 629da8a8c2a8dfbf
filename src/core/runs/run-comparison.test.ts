import { describe, expect, it } from 'vitest';
import { type ComparisonRow, buildQrelsMap } from '../eval/index.ts';
import { comparisonCsv, perQueryCsv, significanceMark } from './comparison-csv.ts';
import { compareRunRankings } from './run-comparison.ts';
import type { QueryRanking } from './run-record.ts';

const qrels = buildQrelsMap([
  { queryId: 'q1', docId: 'd1', relevance: 1 },
  { queryId: 'q2', docId: 'd2', relevance: 1 },
  { queryId: 'q3', docId: 'd3', relevance: 1 },
]);

const ranking = (queryId: string, ...docIds: string[]): QueryRanking => ({ queryId, docIds, scores: docIds.map((_, i) => docIds.length - i) });

const baseline = [ranking('q1', 'd1'), ranking('q2', 'd9', 'd2'), ranking('q3', 'd3')];
// Worse on q1 (relevant at rank 2), better on q2 (rank 1), no ranking for q3.
const other = [ranking('q1', 'd9', 'd1'), ranking('q2', 'd2')];

describe('compareRunRankings', () => {
  it('pairs queries over the baseline, with per-query values and wins/ties/losses', () => {
    const progress: number[] = [];
    const result = compareRunRankings(baseline, [{ key: 'r2', rankings: other }], qrels, ['RR@10', 'P@1'], { permutations: 1000, seed: 7 }, (done) =>
      progress.push(done),
    );
    expect(result.queryIds).toEqual(['q1', 'q2', 'q3']);
    expect(result.measures).toEqual(['RR@10', 'P@1']);
    expect(result.baselinePerQuery.q2).toEqual({ 'RR@10': 0.5, 'P@1': 0 });
    expect(result.perQuery.r2).toEqual({ q1: { 'RR@10': 0.5, 'P@1': 0 }, q2: { 'RR@10': 1, 'P@1': 1 }, q3: { 'RR@10': 0, 'P@1': 0 } });
    const rr = result.rows[0]!;
    expect(rr).toMatchObject({ run: 'r2', measure: 'RR@10', wins: 1, ties: 0, losses: 2 });
    // Baseline mean (1 + 0.5 + 1)/3, run mean (0.5 + 1 + 0)/3.
    expect(rr.baselineMean).toBeCloseTo(2.5 / 3, 12);
    expect(rr.mean).toBeCloseTo(1.5 / 3, 12);
    expect(rr.perQueryDelta).toEqual({ q1: -0.5, q2: 0.5, q3: -1 });
    expect(result.rows[1]).toMatchObject({ measure: 'P@1', wins: 1, ties: 0, losses: 2 });
    expect(result.permutations).toBe(1000);
    expect(result.seed).toBe(7);
    expect(progress).toEqual([1]);
  });

  it('gives p = 1 and all ties for a run identical to the baseline', () => {
    const result = compareRunRankings(baseline, [{ key: 'same', rankings: baseline }], qrels, ['RR@10']);
    expect(result.rows[0]).toMatchObject({ wins: 0, ties: 3, losses: 0, delta: 0, pValue: 1 });
  });
});

describe('comparison CSV', () => {
  const row: ComparisonRow = {
    run: 'r2',
    measure: 'nDCG@10',
    mean: 0.5,
    baselineMean: 0.25,
    delta: 0.25,
    wins: 3,
    ties: 1,
    losses: 0,
    pValue: 0.004,
    perQueryDelta: {},
  };

  it('marks significance at 0.05 and 0.01', () => {
    expect(significanceMark(0.004)).toBe('‡');
    expect(significanceMark(0.01)).toBe('†');
    expect(significanceMark(0.049)).toBe('†');
    expect(significanceMark(0.05)).toBe('');
  });

  it('writes one row per run and measure with names and settings', () => {
    const csv = comparisonCsv([row], { baselineName: 'BM25, default', runNames: { r2: 'Tuned' }, permutations: 10000, seed: 42 });
    expect(csv.split('\r\n')).toEqual([
      'baseline,run,measure,mean,baseline_mean,delta,wins,ties,losses,p_value,significance,p_holm,significant_holm,queries,permutations,seed',
      '"BM25, default",Tuned,nDCG@10,0.5,0.25,0.25,3,1,0,0.004,‡,0.004,true,4,10000,42',
      '',
    ]);
  });

  it('adds the Holm-adjusted p-value over every row of the file, and whether it stays significant', () => {
    const rows = [0.01, 0.04, 0.03].map((pValue, i) => ({ ...row, run: `r${i}`, pValue }));
    const lines = comparisonCsv(rows, { baselineName: 'B', permutations: 10000, seed: 42 }).split('\r\n').slice(1, 4);
    // Sorted 0.01, 0.03, 0.04: × 3, × 2, × 1 with a running maximum → 0.03, 0.06, 0.06.
    expect(lines.map((l) => l.split(',').slice(9, 13))).toEqual([
      ['0.01', '†', '0.03', 'true'],
      ['0.04', '†', '0.06', 'false'],
      ['0.03', '†', '0.06', 'false'],
    ]);
  });

  it('writes the per-query table', () => {
    const csv = perQueryCsv([{ queryId: 'q1', query: 'tides, "mills"', baseline: 0, run: 1, delta: 1 }], 'RR@10', 'A', 'B');
    expect(csv).toBe('query_id,query,measure,baseline,run,baseline_value,run_value,delta\r\nq1,"tides, ""mills""",RR@10,A,B,0,1,1\r\n');
  });
});
