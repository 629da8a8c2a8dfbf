import { describe, expect, it } from 'vitest';
import {
  buildQrelsMap,
  evaluateSweep,
  expandGrid,
  GqrRetriever,
  OKAPI_BM25,
  sweepQueries,
  summarizeRun,
  type GqrPipelineSpec,
  type GqrTrace,
  type Retriever,
  type ScoredDoc,
} from '../../core/index.ts';
import { buildAlphaChart, chartXKeys, perQueryDeltas, winsRows } from './alpha-chart-data.ts';
import { niceScale } from './AlphaChart.tsx';
import { poolRows, qrelsMark, rankTrajectories, trajectoryLabel } from '../shared/inspector-data.ts';
import { labSweepsFromRuns, sweepRunRecords, type SavedSweep } from '../../core/index.ts';
import { sweepCsv } from './sweep-csv.ts';

const MODEL_KEY = JSON.stringify(['tiny-bert', 'fp32', 'mean', 32, '', '']);
const doc = (id: string, score: number): ScoredDoc => ({ id, score });
const fixed = (name: string, lists: Record<string, ScoredDoc[]>): Retriever => ({
  pipeline: name,
  config: {},
  search: async (text, k) => (lists[text] ?? []).slice(0, k),
});
const queries = [
  { id: 'q1', text: 'first' },
  { id: 'q2', text: 'second' },
];
const gqr = new GqrRetriever({
  primary: fixed('p', { first: [doc('a', 0.9), doc('b', 0.8), doc('c', 0.1)], second: [doc('x', 0.7), doc('y', 0.6)] }),
  complementary: fixed('c', { first: [doc('c', 5), doc('a', 1)], second: [doc('y', 3), doc('z', 2)] }),
});
const qrels = buildQrelsMap([
  { queryId: 'q1', docId: 'c', relevance: 1 },
  { queryId: 'q2', docId: 'y', relevance: 1 },
]);
const axes = [
  { key: 'mixtureAlpha' as const, values: [0, 0.5, 1] },
  { key: 'target' as const, values: ['per-step', 'fixed'] },
];
const spec: GqrPipelineSpec = {
  kind: 'gqr',
  primary: { kind: 'dense', modelKey: MODEL_KEY, searchMode: 'single' },
  complementary: { kind: 'bm25', params: { ...OKAPI_BM25 } },
  config: { ...gqr.gqr, nSteps: 200, learningRate: 1 },
};

async function liveSweep(): Promise<{ sweep: SavedSweep; runs: Awaited<ReturnType<typeof sweepQueries>> }> {
  const points = expandGrid(axes, spec.config);
  const job = { points, topK: 2, ccWeights: [0, 1] };
  const runs = await sweepQueries(gqr, queries, job);
  const evaluation = evaluateSweep(runs, qrels, ['RR@10', 'P@1']);
  const base = {
    id: 's-1',
    name: 'Test sweep',
    corpusId: 'c1',
    corpusName: 'Corpus',
    createdAt: 1000,
    spec,
    topK: 2,
    axes,
    points,
    queryCount: 2,
    elapsedMs: 12,
    childFallbacks: 0,
  };
  const { runIds } = sweepRunRecords({ sweep: base, runs, evaluation, qrels, retrieverConfig: {} });
  return { sweep: { ...base, evaluation, runIds }, runs };
}

describe('buildAlphaChart', () => {
  it('one line per target, one row per α, the four reference lines and the best point', async () => {
    const { sweep } = await liveSweep();
    const model = buildAlphaChart(sweep, 'RR@10');
    expect(model.xKey).toBe('mixtureAlpha');
    expect(model.xLabel).toBe('α (mixtureAlpha)');
    expect(model.series).toEqual([
      { key: 's0', label: 'target per-step', legend: 'GQR target per-step' },
      { key: 's1', label: 'target fixed', legend: 'GQR target fixed' },
    ]);
    expect(model.rows.map((r) => r.x)).toEqual([0, 0.5, 1]);
    // α = 0 is the primary's ranking: q1 → 0, q2 → 1/2
    expect(model.rows[0]).toMatchObject({ x: 0, s0: 0.25, s1: 0.25 });
    expect(model.pointIds.s1![0.5]).toBe('mixtureAlpha=0.5,target=fixed');
    // primary 0.25; complementary 1; RRF 0.75; CC best at w=0: 1 (hand-computed in run-sweep.test.ts)
    expect(model.references.map((r) => [r.key, r.value])).toEqual([
      ['primary', 0.25],
      ['complementary', 1],
      ['rrf', 0.75],
      ['cc', 1],
    ]);
    expect(model.references[0]!.label).toBe('primary only (Dense tiny-bert)');
    expect(model.references[3]!.label).toBe('best CC (w=0)');
    const values = sweep.evaluation.points.map((p) => p.aggregate['RR@10']!);
    expect(model.best!.value).toBe(Math.max(...values));
    expect(model.best!.pointId).toBe(sweep.evaluation.bestPoint['RR@10']!.at);
  });

  it('can chart against another numeric key, with α becoming a series', () => {
    const sweep = {
      spec,
      axes: [
        { key: 'mixtureAlpha' as const, values: [0, 1] },
        { key: 'nSteps' as const, values: [5, 10] },
      ],
      points: expandGrid(
        [
          { key: 'mixtureAlpha', values: [0, 1] },
          { key: 'nSteps', values: [5, 10] },
        ],
        {},
      ),
      evaluation: {
        measures: ['m'],
        evaluatedQueries: 1,
        points: [
          { pointId: 'mixtureAlpha=0,nSteps=5', aggregate: { m: 0.1 } },
          { pointId: 'mixtureAlpha=0,nSteps=10', aggregate: { m: 0.2 } },
          { pointId: 'mixtureAlpha=1,nSteps=5', aggregate: { m: 0.3 } },
          { pointId: 'mixtureAlpha=1,nSteps=10', aggregate: { m: 0.4 } },
        ].map((p) => ({ ...p, perQuery: {}, versusPrimary: {}, pathCounts: { single: 1, multi: 0, 'score-space': 0 } })),
        baselines: { primary: { aggregate: { m: 0.15 }, perQuery: {}, versusPrimary: {} }, complementary: { aggregate: {}, perQuery: {}, versusPrimary: {} }, rrf: { aggregate: {}, perQuery: {}, versusPrimary: {} } },
        cc: [],
        bestPoint: {},
        bestCc: {},
      },
    };
    expect(chartXKeys(sweep.axes)).toEqual(['mixtureAlpha', 'nSteps']);
    const model = buildAlphaChart(sweep, 'm', 'nSteps');
    expect(model.series.map((s) => s.label)).toEqual(['α 0', 'α 1']);
    expect(model.rows).toEqual([
      { x: 5, s0: 0.1, s1: 0.3 },
      { x: 10, s0: 0.2, s1: 0.4 },
    ]);
    // missing baselines draw no line
    expect(model.references.map((r) => r.key)).toEqual(['primary']);
    expect(model.best).toEqual({ seriesKey: 's1', x: 10, value: 0.4, pointId: 'mixtureAlpha=1,nSteps=10' });
    expect(chartXKeys([{ key: 'target', values: ['per-step', 'fixed'] }])).toEqual(['mixtureAlpha']);
    expect(model.beatenBy).toEqual([]);
  });

  it('labels the only line "GQR" (not "GQR GQR") and lists the baselines that beat the best grid point', () => {
    const scores = { primary: 0.2, complementary: 0.45, rrf: 0.5 };
    const sweep = {
      spec,
      axes: [{ key: 'mixtureAlpha' as const, values: [0, 0.5, 1] }],
      points: expandGrid([{ key: 'mixtureAlpha', values: [0, 0.5, 1] }], {}),
      evaluation: {
        measures: ['m'],
        evaluatedQueries: 1,
        points: [
          { pointId: 'mixtureAlpha=0', aggregate: { m: 0.2 } },
          { pointId: 'mixtureAlpha=0.5', aggregate: { m: 0.4 } },
          { pointId: 'mixtureAlpha=1', aggregate: { m: 0.3 } },
        ].map((p) => ({ ...p, perQuery: {}, versusPrimary: {}, pathCounts: { single: 1, multi: 0, 'score-space': 0 } })),
        baselines: {
          primary: { aggregate: { m: scores.primary }, perQuery: {}, versusPrimary: {} },
          complementary: { aggregate: { m: scores.complementary }, perQuery: {}, versusPrimary: {} },
          rrf: { aggregate: { m: scores.rrf }, perQuery: {}, versusPrimary: {} },
        },
        cc: [],
        bestPoint: {},
        bestCc: { m: { at: 0.3, value: 0.4 } },
      },
    };
    const model = buildAlphaChart(sweep, 'm');
    expect(model.series).toEqual([{ key: 's0', label: '', legend: 'GQR' }]);
    expect(model.best).toMatchObject({ x: 0.5, value: 0.4 });
    // RRF and the complementary beat it; best CC only ties it.
    expect(model.beatenBy.map((r) => [r.key, r.value])).toEqual([
      ['rrf', 0.5],
      ['complementary', 0.45],
    ]);
  });
});

describe('winsRows and perQueryDeltas', () => {
  it('count per grid point and list each query against the primary', async () => {
    const { sweep } = await liveSweep();
    const rows = winsRows(sweep, 'RR@10');
    expect(rows).toHaveLength(6);
    expect(rows[0]).toEqual({ pointId: 'mixtureAlpha=0,target=per-step', label: 'α 0 · target per-step', value: 0.25, counts: { wins: 0, ties: 2, losses: 0 } });
    const deltas = perQueryDeltas(sweep.evaluation, 'mixtureAlpha=0,target=per-step', 'RR@10');
    expect(deltas).toEqual([
      { queryId: 'q1', primary: 0, value: 0, delta: 0 },
      { queryId: 'q2', primary: 0.5, value: 0.5, delta: 0 },
    ]);
  });
});

describe('sweepCsv', () => {
  it('has a row per grid point and per baseline, full precision', async () => {
    const { sweep } = await liveSweep();
    const lines = sweepCsv(sweep, 'RR@10').split('\r\n');
    expect(lines[0]).toBe('kind,name,mixtureAlpha,target,RR@10,P@1,wins vs primary (RR@10),ties,losses,single,multi,score-space');
    expect(lines[1]).toBe('gqr,"mixtureAlpha=0,target=per-step",0,per-step,0.25,0,0,2,0,0,0,2');
    expect(lines.filter((l) => l.startsWith('gqr,'))).toHaveLength(6);
    expect(lines).toContain('baseline,primary only: Dense tiny-bert,,,0.25,0,0,2,0,,,');
    expect(lines).toContain('baseline,RRF k=60,,,0.75,0.5,2,0,0,,,');
    expect(lines).toContain('baseline,CC mm w=0,,,1,1,2,0,0,,,');
    expect(lines[lines.length - 1]).toBe('');
  });
});

describe('saved sweeps', () => {
  it('saves every grid point and the four baselines as runs, and rebuilds the same sweep from them', async () => {
    const { sweep, runs } = await liveSweep();
    const { records, runIds } = sweepRunRecords({ sweep, runs, evaluation: sweep.evaluation, qrels, retrieverConfig: { primary: { pipeline: 'dense' } } });
    expect(records).toHaveLength(10);
    expect(records.map((r) => r.name)).toEqual([
      'Test sweep · GQR α 0 · target per-step',
      'Test sweep · GQR α 0 · target fixed',
      'Test sweep · GQR α 0.5 · target per-step',
      'Test sweep · GQR α 0.5 · target fixed',
      'Test sweep · GQR α 1 · target per-step',
      'Test sweep · GQR α 1 · target fixed',
      'Test sweep · primary only',
      'Test sweep · complementary only',
      'Test sweep · RRF k=60',
      'Test sweep · best CC w=0 (by RR@10)',
    ]);
    expect(records[3]!.pipeline).toEqual({ ...spec, config: { ...spec.config, mixtureAlpha: 0.5, target: 'fixed' } });
    expect(records[0]!.config.pathsTaken).toEqual({ single: 0, multi: 0, 'score-space': 2, childStandIns: 0 });
    expect(records[9]!.pipeline).toMatchObject({ kind: 'cc', weight: 0, normalizeMethod: 'mm', fetchKMultiplier: 2 });
    expect(records[8]!.pipeline).toMatchObject({ kind: 'rrf', k: 60 });
    expect(records[6]!.pipeline).toEqual(spec.primary);
    expect(records[6]!.metrics!.aggregate['RR@10']).toBe(0.25);
    expect(Object.keys(runIds)).toHaveLength(10);
    expect(records[0]!.versions.models).toEqual({ 'tiny-bert': MODEL_KEY });

    // a reload: summaries come back from the store, newest first, with other runs mixed in
    const other = { ...summarizeRun(records[6]!), id: 'r-other', config: {} };
    const [restored, ...more] = labSweepsFromRuns([other, ...records.map(summarizeRun)].reverse());
    expect(more).toEqual([]);
    expect(restored!.id).toBe('s-1');
    expect(restored!.points).toEqual(sweep.points);
    expect(restored!.axes).toEqual(axes);
    expect(restored!.spec).toEqual(spec);
    expect(restored!.runIds).toEqual(runIds);
    expect(buildAlphaChart(restored!, 'RR@10')).toEqual(buildAlphaChart(sweep, 'RR@10'));
    expect(winsRows(restored!, 'P@1')).toEqual(winsRows(sweep, 'P@1'));
  });

  it('leaves out a sweep whose primary run was deleted', async () => {
    const { sweep, runs } = await liveSweep();
    const { records } = sweepRunRecords({ sweep, runs, evaluation: sweep.evaluation, qrels, retrieverConfig: {} });
    expect(labSweepsFromRuns(records.filter((r) => !r.name.endsWith('primary only')).map(summarizeRun))).toEqual([]);
  });
});

describe('inspector data', () => {
  const trace = {
    pool: ['a', 'b', 'c'],
    topK: 2,
    steps: 2,
    primaryScores: [0.9, 0.5, -0.5],
    complementaryScores: [1, 3, 2],
    primaryDistribution: [0.5, 0.3, 0.2],
    complementaryDistribution: [0.1, 0.6, 0.3],
    targetDistribution: [0.2, 0.5, 0.3],
    finalDistribution: [0.25, 0.45, 0.3],
    ranks: [
      [1, 2, 3],
      [1, 3, 2],
      [3, 1, 2],
    ],
  } as unknown as GqrTrace;

  it('lists the pool in final rank order with what each child gave it', () => {
    const rows = poolRows(trace, new Set(['a', 'b']), new Set(['a', 'b', 'c']));
    expect(rows.map((r) => [r.id, r.finalRank, r.initialRank, r.inPrimary, r.q])).toEqual([
      ['b', 1, 2, true, 0.6],
      ['c', 2, 3, false, 0.3],
      ['a', 3, 1, true, 0.1],
    ]);
  });

  it('draws the candidates in the top at the start or the end, one row per step', () => {
    const { ids, rows } = rankTrajectories(trace, 1);
    expect(ids).toEqual(['b', 'a']);
    expect(rows).toEqual([
      { step: 0, a: 1, b: 2 },
      { step: 1, a: 1, b: 3 },
      { step: 2, a: 3, b: 1 },
    ]);
  });
});

describe('inspector labels', () => {
  const judgements = new Map([
    ['d1', 2],
    ['d2', 0],
  ]);
  it('marks judged relevant ✓ and judged not relevant ✗, nothing when unjudged or without qrels', () => {
    expect([qrelsMark(2, true), qrelsMark(0, true), qrelsMark(undefined, true), qrelsMark(2, false)]).toEqual([' ✓', ' ✗', '', '']);
  });
  it('labels a trajectory line with its ranks, title, id and relevance', () => {
    expect(trajectoryLabel('d1', 'Harbour lights', 7, 1, judgements)).toBe('rank 7 → 1 · Harbour lights (d1) · ✓ relevant (rel 2)');
    expect(trajectoryLabel('d2', '', 2, 9, judgements)).toBe('rank 2 → 9 · d2 · ✗ not relevant (rel 0)');
    expect(trajectoryLabel('d3', 'x'.repeat(80), 3, 3, judgements)).toBe(`rank 3 → 3 · ${'x'.repeat(59)}… (d3) · unjudged`);
    expect(trajectoryLabel('d1', 'Harbour lights', 7, 1, undefined)).toBe('rank 7 → 1 · Harbour lights (d1)');
  });
});

describe('niceScale', () => {
  it('puts the y axis on round ticks around the data', () => {
    // step 0.2; 0.752 + a quarter step of head room rounds up to 1
    expect(niceScale(0.142, 0.752)).toEqual({ domain: [0, 1], ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
    expect(niceScale(0.41, 0.43)).toEqual({ domain: [0.405, 0.435], ticks: [0.405, 0.41, 0.415, 0.42, 0.425, 0.43, 0.435] });
  });
});
