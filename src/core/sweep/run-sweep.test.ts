import { describe, expect, it } from 'vitest';
import { buildQrelsMap } from '../eval/index.ts';
import { GqrRetriever, type GqrGeometry, type Retriever } from '../retrieval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import { evaluateSweep } from './evaluate-sweep.ts';
import { expandGrid } from './grid.ts';
import { prepareSweepQueries, sweepPreparedQueries, sweepPreparedQueriesInTasks, sweepQueries } from './run-sweep.ts';
import { collectSweepRuns } from './sweep-runs.ts';
import { sweepQuery, type SweepJob } from './sweep-query.ts';

const doc = (id: string, score: number): ScoredDoc => ({ id, score });

/** A child returning a fixed list per query text and counting its calls. */
function countingRetriever(name: string, lists: Record<string, ScoredDoc[]>): Retriever & { calls: number } {
  const retriever = {
    pipeline: name,
    config: {},
    calls: 0,
    async search(text: string, k: number) {
      retriever.calls++;
      return (lists[text] ?? []).slice(0, k);
    },
  };
  return retriever;
}

const queries = [
  { id: 'q1', text: 'first' },
  { id: 'q2', text: 'second' },
];
const primaryLists = { first: [doc('a', 0.9), doc('b', 0.8), doc('c', 0.1)], second: [doc('x', 0.7), doc('y', 0.6)] };
const complementaryLists = { first: [doc('c', 5), doc('a', 1)], second: [doc('y', 3), doc('z', 2)] };
const qrels = buildQrelsMap([
  { queryId: 'q1', docId: 'c', relevance: 1 },
  { queryId: 'q2', docId: 'y', relevance: 1 },
]);
const grid = expandGrid(
  [
    { key: 'mixtureAlpha', values: [0, 0.5, 1] },
    { key: 'target', values: ['per-step', 'fixed'] },
  ],
  { nSteps: 200, learningRate: 1 },
);
const job: SweepJob = { points: grid, topK: 2, ccWeights: [0, 1] };

describe('sweepQueries', () => {
  it('runs each child once per query, whatever the number of grid points', async () => {
    const primary = countingRetriever('p', primaryLists);
    const complementary = countingRetriever('c', complementaryLists);
    const calls = { embedQuery: 0, documentVectors: 0 };
    const geometry: GqrGeometry = {
      searchMode: 'single',
      async embedQuery() {
        calls.embedQuery++;
        return [1, 0];
      },
      async documentVectors(ids) {
        calls.documentVectors++;
        return new Map(ids.map((id, i) => [id, [Math.cos(i), Math.sin(i)]]));
      },
    };
    const gqr = new GqrRetriever({ primary, complementary, geometry });
    const progress: string[] = [];
    const runs = await sweepQueries(gqr, queries, job, (p) => progress.push(`${p.phase} ${p.done}/${p.total}`));
    expect(primary.calls).toBe(2);
    expect(complementary.calls).toBe(2);
    expect(calls).toEqual({ embedQuery: 2, documentVectors: 2 });
    expect(runs.points).toHaveLength(6);
    expect(progress).toEqual(['prepare 1/2', 'prepare 2/2', 'rerank 1/2', 'rerank 2/2']);
    expect(Object.values(runs.points[0].paths)).toEqual(['single', 'single']);
  });

  it('gives every grid point exactly what a GQR retriever with that point’s settings returns', async () => {
    const runs = await sweepQueries(
      new GqrRetriever({ primary: countingRetriever('p', primaryLists), complementary: countingRetriever('c', complementaryLists) }),
      queries,
      job,
    );
    for (const { point, run } of runs.points) {
      const alone = new GqrRetriever({
        primary: countingRetriever('p', primaryLists),
        complementary: countingRetriever('c', complementaryLists),
        config: point.config,
      });
      for (const query of queries) expect(run.get(query.id)).toEqual(await alone.search(query.text, 2));
    }
  });

  it('computes the baselines from the same child lists (hand-computed RRF and CC)', async () => {
    const gqr = new GqrRetriever({ primary: countingRetriever('p', primaryLists), complementary: countingRetriever('c', complementaryLists) });
    const runs = await sweepQueries(gqr, queries, job);
    expect(runs.baselines.primary.get('q1')).toEqual([doc('a', 0.9), doc('b', 0.8)]);
    expect(runs.baselines.complementary.get('q2')).toEqual([doc('y', 3), doc('z', 2)]);
    // RRF, k 60, fetch_k 4: a = 1/61 + 1/62, c = 1/63 + 1/61, b = 1/62 + 1/65
    const rrf = runs.baselines.rrf.get('q1')!;
    expect(rrf.map((d) => d.id)).toEqual(['a', 'c']);
    expect(rrf[0].score).toBeCloseTo(1 / 61 + 1 / 62, 15);
    expect(rrf[1].score).toBeCloseTo(1 / 63 + 1 / 61, 15);
    // CC weight 0 is the min-max normalised complementary list; weight 1 the primary one
    expect(runs.cc.map((c) => c.weight)).toEqual([0, 1]);
    expect(runs.cc[0].run.get('q1')).toEqual([doc('c', 1), doc('a', 0)]);
    expect(runs.cc[1].run.get('q1')!.map((d) => d.id)).toEqual(['a', 'b']);
    expect(runs.cc[1].run.get('q1')![1].score).toBeCloseTo(0.875, 15);
  });
});

/** A signal aborted by a message on a MessageChannel, as an abort port does in a worker; `send()` posts it. */
function messageAbort() {
  const { port1, port2 } = new MessageChannel();
  const controller = new AbortController();
  port2.onmessage = () => {
    controller.abort(new DOMException('The sweep was cancelled', 'AbortError'));
    port2.close();
  };
  return { signal: controller.signal, send: () => port1.postMessage('cancel'), close: () => port1.close() };
}

/** Busy for `ms`, like a query that does not yield (CPU re-ranking, wasm inference). */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a sweep in a worker', () => {
  const many = Array.from({ length: 8 }, (_, i) => ({ id: `q${i}`, text: i % 2 ? 'second' : 'first' }));
  const gqr = () => new GqrRetriever({ primary: countingRetriever('p', primaryLists), complementary: countingRetriever('c', complementaryLists) });

  it('re-ranking hears an abort message within one query, reports each query, and otherwise equals the one-thread sweep', async () => {
    const prepared = await prepareSweepQueries(gqr(), many, job.topK);
    const { signal, send, close } = messageAbort();
    let done = 0;
    const rerank = sweepPreparedQueriesInTasks(prepared, job, () => {
      done++;
      busy(30);
      if (done === 2) send();
    }, signal);
    await expect(rerank).rejects.toThrow('The sweep was cancelled');
    close();
    expect(done).toBe(2);

    const steps: number[] = [];
    const all = await sweepPreparedQueriesInTasks(prepared, job, () => steps.push(steps.length + 1));
    expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(all).toEqual(sweepPreparedQueries(prepared, job));
  });

  it('preparing hears an abort message within one query', async () => {
    const { signal, send, close } = messageAbort();
    const slow = gqr();
    const prepare = slow.prepare.bind(slow);
    let started = 0;
    slow.prepare = async (text, k, s) => {
      started++;
      busy(30);
      if (started === 3) send();
      return prepare(text, k, s);
    };
    const progress: number[] = [];
    await expect(prepareSweepQueries(slow, many, job.topK, (p) => progress.push(p.done), signal)).rejects.toThrow('The sweep was cancelled');
    close();
    expect(started).toBe(3);
    expect(progress).toEqual([1, 2, 3]);
  });
});

describe('evaluateSweep', () => {
  it('scores every run and counts wins, ties and losses against the primary (hand-computed RR@10)', async () => {
    const gqr = new GqrRetriever({ primary: countingRetriever('p', primaryLists), complementary: countingRetriever('c', complementaryLists) });
    const evaluation = evaluateSweep(await sweepQueries(gqr, queries, job), qrels, ['RR@10']);
    expect(evaluation.measures).toEqual(['RR@10']);
    expect(evaluation.evaluatedQueries).toBe(2);
    // primary: q1 [a, b] → 0, q2 [x, y] → 1/2
    expect(evaluation.baselines.primary.aggregate['RR@10']).toBe(0.25);
    expect(evaluation.baselines.primary.versusPrimary['RR@10']).toEqual({ wins: 0, ties: 2, losses: 0 });
    // complementary: [c, a] → 1, [y, z] → 1
    expect(evaluation.baselines.complementary.aggregate['RR@10']).toBe(1);
    expect(evaluation.baselines.complementary.versusPrimary['RR@10']).toEqual({ wins: 2, ties: 0, losses: 0 });
    // RRF: [a, c] → 1/2, [y, x] → 1
    expect(evaluation.baselines.rrf.aggregate['RR@10']).toBe(0.75);
    expect(evaluation.cc.map((c) => c.aggregate['RR@10'])).toEqual([1, 0.25]);
    expect(evaluation.bestCc['RR@10']).toEqual({ value: 1, at: 0 });
    // α = 0 never moves: the primary's order, so a tie on both queries
    const alphaZero = evaluation.points.find((p) => p.pointId === 'mixtureAlpha=0,target=per-step')!;
    expect(alphaZero.aggregate['RR@10']).toBe(0.25);
    expect(alphaZero.versusPrimary['RR@10']).toEqual({ wins: 0, ties: 2, losses: 0 });
    expect(alphaZero.pathCounts).toEqual({ single: 0, multi: 0, 'score-space': 2 });
    // the best point is the first reaching the maximum
    const max = Math.max(...evaluation.points.map((p) => p.aggregate['RR@10']));
    const first = evaluation.points.find((p) => p.aggregate['RR@10'] === max)!;
    expect(evaluation.bestPoint['RR@10']).toEqual({ value: max, at: first.pointId });
  });
});

describe('collectSweepRuns', () => {
  it('orders queries by the query set whatever order the results arrive in, and lists child fallbacks', async () => {
    const gqr = new GqrRetriever({ primary: countingRetriever('p', primaryLists), complementary: countingRetriever('c', complementaryLists) });
    const prepared = await Promise.all(queries.map(async (q) => ({ queryId: q.id, ...(await gqr.prepare(q.text, 2)) })));
    const results = prepared.map((p) => sweepQuery(p, job)).reverse();
    results[0] = { ...results[0], children: 'complementary-for-primary' };
    const runs = collectSweepRuns(['q1', 'q2', 'q3'], results, job);
    expect(runs.queryIds).toEqual(['q1', 'q2']);
    expect([...runs.points[0].run.keys()]).toEqual(['q1', 'q2']);
    expect(runs.childFallbacks).toEqual({ q2: 'complementary-for-primary' });
  });
});
