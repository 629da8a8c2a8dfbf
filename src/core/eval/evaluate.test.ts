import { describe, expect, it } from 'vitest';
import { buildQrelsMap, buildRunMap, evaluateRun } from './evaluate.ts';
import type { QrelsMap, RunMap } from './types.ts';

const LOG2_3 = Math.log2(3);

// Fixture (hand-made):
// q1 graded: d1=2, d2=1, d3=0, d4=1 → relevant d1, d2, d4 (R = 3), ideal gains [2, 1, 1].
// q2 binary: d7=1, d8=1 (R = 2).
// q3 only a non-relevant judgement → skipped, although it is in the run.
// q4 relevant d10=1 but absent from the run → scores 0, counted.
// q5 only in the run → ignored.
const qrels: QrelsMap = buildQrelsMap([
  { queryId: 'q1', docId: 'd1', relevance: 2 },
  { queryId: 'q1', docId: 'd2', relevance: 1 },
  { queryId: 'q1', docId: 'd3', relevance: 0 },
  { queryId: 'q1', docId: 'd4', relevance: 1 },
  { queryId: 'q2', docId: 'd7', relevance: 1 },
  { queryId: 'q2', docId: 'd8', relevance: 1 },
  { queryId: 'q3', docId: 'd1', relevance: 0 },
  { queryId: 'q4', docId: 'd10', relevance: 1 },
]);

const run: RunMap = buildRunMap([
  // q1: d1 and d5 tie at 0.8 → id descending puts d5 first.
  // Ranking: 1 d3 (0), 2 d5 (unjudged), 3 d1 (2), 4 d2 (1), 5 d6 (unjudged), 6 d4 (1).
  { queryId: 'q1', docId: 'd4', score: 0.1 },
  { queryId: 'q1', docId: 'd1', score: 0.8 },
  { queryId: 'q1', docId: 'd3', score: 0.9 },
  { queryId: 'q1', docId: 'd2', score: 0.5 },
  { queryId: 'q1', docId: 'd5', score: 0.8 },
  { queryId: 'q1', docId: 'd6', score: 0.4 },
  // q2: the result 'q2' (= query id) is dropped → ranking 1 d8 (1), 2 d9 (unjudged), 3 d7 (1).
  { queryId: 'q2', docId: 'q2', score: 5 },
  { queryId: 'q2', docId: 'd8', score: 3 },
  { queryId: 'q2', docId: 'd9', score: 2 },
  { queryId: 'q2', docId: 'd7', score: 1 },
  { queryId: 'q3', docId: 'd1', score: 1 },
  { queryId: 'q5', docId: 'd1', score: 1 },
]);

describe('evaluateRun', () => {
  const measures = ['nDCG@3', 'nDCG', 'R@5', 'P@10', 'RR', 'RR@2', 'AP', 'Rprec', 'Judged@3'];
  const result = evaluateRun(qrels, run, measures);

  it('evaluates exactly the queries with a relevant judgement, in qrels order', () => {
    expect(Object.keys(result.perQuery)).toEqual(['q1', 'q2', 'q4']);
    expect(Object.keys(result.aggregate)).toEqual(measures);
  });

  it('q1: graded relevance, tie broken by doc id descending, unjudged documents', () => {
    const q1 = result.perQuery.q1;
    // nDCG@3: DCG = 2/log2(4) = 1; IDCG@3 = 2 + 1/log2(3) + 1/log2(4) = 3.1309297536 → 0.3193939432
    expect(q1['nDCG@3']).toBeCloseTo(1 / (2 + 1 / LOG2_3 + 0.5), 9);
    expect(q1['nDCG@3']).toBeCloseTo(0.3193939432, 9);
    // nDCG: DCG = 2/log2(4) + 1/log2(5) + 1/log2(7) = 1 + 0.4306765581 + 0.3562071871 = 1.7868837452
    //       IDCG = 3.1309297536 → 0.5707198455
    expect(q1.nDCG).toBeCloseTo((1 + 1 / Math.log2(5) + 1 / Math.log2(7)) / (2 + 1 / LOG2_3 + 0.5), 9);
    expect(q1.nDCG).toBeCloseTo(0.5707198455, 9);
    // R@5: d1, d2 in top 5 → 2/3.
    expect(q1['R@5']).toBeCloseTo(2 / 3, 12);
    // P@10 with 6 results: 3 relevant / 10.
    expect(q1['P@10']).toBeCloseTo(0.3, 12);
    // First relevant (d1) at rank 3 → RR = 1/3; RR@2 = 0.
    expect(q1.RR).toBeCloseTo(1 / 3, 12);
    expect(q1['RR@2']).toBe(0);
    // AP = (1/3 + 2/4 + 3/6) / 3 = (0.3333 + 0.5 + 0.5) / 3 = 4/9.
    expect(q1.AP).toBeCloseTo(4 / 9, 12);
    // Rprec: top 3 = d3, d5, d1 → 1/3.
    expect(q1.Rprec).toBeCloseTo(1 / 3, 12);
    // Judged@3: d3 (judged 0) and d1 judged, d5 not → 2/3.
    expect(q1['Judged@3']).toBeCloseTo(2 / 3, 12);
  });

  it('q2: binary relevance, the query-id result is ignored', () => {
    const q2 = result.perQuery.q2;
    // DCG@3 = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309297536 → 0.9197207891
    expect(q2['nDCG@3']).toBeCloseTo(1.5 / (1 + 1 / LOG2_3), 9);
    expect(q2.nDCG).toBeCloseTo(0.9197207891, 9);
    expect(q2['R@5']).toBe(1);
    expect(q2['P@10']).toBeCloseTo(0.2, 12);
    expect(q2.RR).toBe(1);
    // AP = (1/1 + 2/3) / 2 = 5/6.
    expect(q2.AP).toBeCloseTo(5 / 6, 12);
    // Rprec: top 2 = d8, d9 → 1/2.
    expect(q2.Rprec).toBeCloseTo(0.5, 12);
    expect(q2['Judged@3']).toBeCloseTo(2 / 3, 12);
  });

  it('q4: missing from the run scores 0', () => {
    for (const m of measures) expect(result.perQuery.q4[m]).toBe(0);
  });

  it('means are over the evaluated queries (q1, q2, q4)', () => {
    // RR: (1/3 + 1 + 0) / 3 = 4/9.   AP: (4/9 + 5/6 + 0) / 3 = (8/18 + 15/18) / 3 = 23/54.
    expect(result.aggregate.RR).toBeCloseTo(4 / 9, 12);
    expect(result.aggregate.AP).toBeCloseTo(23 / 54, 12);
    // P@10: (0.3 + 0.2 + 0) / 3 = 1/6.
    expect(result.aggregate['P@10']).toBeCloseTo(1 / 6, 12);
    expect(result.aggregate['nDCG@3']).toBeCloseTo(
      (1 / (2 + 1 / LOG2_3 + 0.5) + 1.5 / (1 + 1 / LOG2_3)) / 3,
      12,
    );
  });

  it('keeps the query-id result when ignoreIdenticalIds is false', () => {
    const r = evaluateRun(qrels, run, ['RR', 'P@10'], { ignoreIdenticalIds: false });
    // Ranking 1 q2 (unjudged), 2 d8, 3 d9, 4 d7 → RR = 1/2; P@10 unchanged = 2/10.
    expect(r.perQuery.q2.RR).toBeCloseTo(0.5, 12);
    expect(r.perQuery.q2['P@10']).toBeCloseTo(0.2, 12);
  });

  it('keeps the first occurrence of a repeated document', () => {
    const q = buildQrelsMap([{ queryId: 'q', docId: 'a', relevance: 1 }]);
    const r = buildRunMap([
      { queryId: 'q', docId: 'a', score: 0.1 },
      { queryId: 'q', docId: 'b', score: 0.5 },
      { queryId: 'q', docId: 'a', score: 0.9 },
    ]);
    // Kept: a@0.1, b@0.5 → ranking b, a → RR = 1/2 (it would be 1 if the repeat counted).
    expect(evaluateRun(q, r, ['RR']).perQuery.q.RR).toBeCloseTo(0.5, 12);
  });

  it('an empty run list counts as 0, and no evaluable query gives means of 0', () => {
    const q = buildQrelsMap([{ queryId: 'q', docId: 'a', relevance: 1 }]);
    const r: RunMap = new Map([['q', []]]);
    expect(evaluateRun(q, r, ['nDCG@10', 'Judged@10'])).toEqual({
      aggregate: { 'nDCG@10': 0, 'Judged@10': 0 },
      perQuery: { q: { 'nDCG@10': 0, 'Judged@10': 0 } },
    });
    const none = buildQrelsMap([{ queryId: 'q', docId: 'a', relevance: 0 }]);
    expect(evaluateRun(none, r, ['AP'])).toEqual({ aggregate: { AP: 0 }, perQuery: {} });
  });

  it('accepts parsed measures, drops repeated names, rejects unknown names', () => {
    const r = evaluateRun(qrels, run, [{ name: 'RR', kind: 'RR' }, 'RR', 'P@10']);
    expect(Object.keys(r.aggregate)).toEqual(['RR', 'P@10']);
    expect(() => evaluateRun(qrels, run, ['bpref'])).toThrow(/unknown measure 'bpref'/);
    // trec_eval's name of a measure given as well is the same measure, kept once.
    expect(Object.keys(evaluateRun(qrels, run, ['P@10', 'P_10', 'recip_rank']).aggregate)).toEqual(['P@10', 'RR']);
  });
});

describe('buildQrelsMap', () => {
  it('groups by query; the last judgement of a repeated pair wins', () => {
    const m = buildQrelsMap([
      { queryId: 'q', docId: 'a', relevance: 1 },
      { queryId: 'p', docId: 'a', relevance: 2 },
      { queryId: 'q', docId: 'a', relevance: 0 },
    ]);
    expect([...m.keys()]).toEqual(['q', 'p']);
    expect(m.get('q')?.get('a')).toBe(0);
    expect(m.get('p')?.get('a')).toBe(2);
  });
});
