import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare.ts';
import { buildQrelsMap } from './evaluate.ts';
import type { RunMap } from './types.ts';

// q1..q3 have one relevant document each; q4 has none (not paired); q5 appears only in runs (ignored).
const qrels = buildQrelsMap([
  { queryId: 'q1', docId: 'a', relevance: 1 },
  { queryId: 'q2', docId: 'b', relevance: 1 },
  { queryId: 'q3', docId: 'c', relevance: 1 },
  { queryId: 'q4', docId: 'd', relevance: 0 },
]);
const run = (lists: Record<string, string[]>): RunMap =>
  new Map(Object.entries(lists).map(([q, ids]) => [q, ids.map((id, i) => ({ id, score: ids.length - i }))]));

// Baseline RR: q1 [a] → 1, q2 [x, b] → 1/2, q3 missing → 0.       mean 1/2
// Run A    RR: q1 [x, a] → 1/2, q2 [b] → 1, q3 [c] → 1.           mean 5/6
// Differences (A − base): −1/2, +1/2, +1 → 2 wins, 0 ties, 1 loss; delta = 1/3.
// Exact p: in units of 1/2, [−1, 1, 2], observed |2|; the 8 sums ±1±1±2 = 4, 0, 2, −2, 2, −2, 0, −4 → 6/8.
// P@1: base 1, 0, 0; A 0, 1, 1 → differences −1, +1, +1: 2 wins, 1 loss; exact p: ±1±1±1 → |sum| ≥ 1 always → 1.
const baseline = run({ q1: ['a'], q2: ['x', 'b'], q4: ['d'], q5: ['z'] });
const runA = run({ q1: ['x', 'a'], q2: ['b'], q3: ['c'], q5: ['y'] });

describe('compareRuns', () => {
  const rows = compareRuns(baseline, new Map([['A', runA], ['same', baseline]]), qrels, ['RR', 'P@1'], {
    seed: 3,
  });

  it('reports means, delta, wins/ties/losses per run and measure', () => {
    expect(rows.map((r) => [r.run, r.measure])).toEqual([
      ['A', 'RR'],
      ['A', 'P@1'],
      ['same', 'RR'],
      ['same', 'P@1'],
    ]);
    const rr = rows[0];
    expect(rr.mean).toBeCloseTo(5 / 6, 12);
    expect(rr.baselineMean).toBeCloseTo(1 / 2, 12);
    expect(rr.delta).toBeCloseTo(1 / 3, 12);
    expect([rr.wins, rr.ties, rr.losses]).toEqual([2, 0, 1]);
    expect(rr.perQueryDelta).toEqual({ q1: -0.5, q2: 0.5, q3: 1 });
    const p1 = rows[1];
    expect(p1.mean).toBeCloseTo(2 / 3, 12);
    expect(p1.baselineMean).toBeCloseTo(1 / 3, 12);
    expect([p1.wins, p1.ties, p1.losses]).toEqual([2, 0, 1]);
  });

  it('p-values agree with the exact enumeration', () => {
    // RR: exact 0.75; Monte-Carlo sd = sqrt(0.75·0.25/10000) ≈ 0.0043.
    expect(Math.abs(rows[0].pValue - 0.75)).toBeLessThan(4 * 0.0044);
    // P@1: every sign vector is as extreme → (10000 + 1)/(10000 + 1) = 1.
    expect(rows[1].pValue).toBe(1);
  });

  it('a run identical to the baseline ties everywhere with p = 1', () => {
    for (const row of rows.slice(2)) {
      expect(row.delta).toBe(0);
      expect([row.wins, row.ties, row.losses]).toEqual([0, 3, 0]);
      expect(row.pValue).toBe(1);
    }
  });

  it("a row's p-value depends only on its own data and the seed", () => {
    const alone = compareRuns(baseline, new Map([['A', runA]]), qrels, ['RR'], { seed: 3 });
    expect(alone[0].pValue).toBe(rows[0].pValue);
  });

  it('treats differences below 1e-12 as ties', () => {
    // R = 3 (a, b, c; c never retrieved).
    // Baseline: a at rank 1, b at rank 12 → AP = (1/1 + 2/12)/3 = 7/18, in floats 0.3888888888888889.
    // B: a at rank 2, b at rank 3 → AP = (1/2 + 2/3)/3 = 7/18, in floats 0.38888888888888884.
    const q = buildQrelsMap(['a', 'b', 'c'].map((docId) => ({ queryId: 'q', docId, relevance: 1 })));
    const fillers = Array.from({ length: 10 }, (_, i) => `x${i}`);
    const base = run({ q: ['a', ...fillers, 'b'] });
    const [row] = compareRuns(base, new Map([['B', run({ q: ['x', 'a', 'b'] })]]), q, ['AP']);
    expect(row.perQueryDelta.q).not.toBe(0);
    expect(Math.abs(row.perQueryDelta.q)).toBeLessThan(1e-12);
    expect([row.wins, row.ties, row.losses]).toEqual([0, 1, 0]);
  });

  it('with no paired query every mean is 0 and p = 1', () => {
    const none = buildQrelsMap([{ queryId: 'q', docId: 'a', relevance: 0 }]);
    const [row] = compareRuns(baseline, new Map([['A', runA]]), none, ['AP']);
    expect(row).toMatchObject({ mean: 0, baselineMean: 0, delta: 0, wins: 0, ties: 0, losses: 0, pValue: 1 });
  });
});
