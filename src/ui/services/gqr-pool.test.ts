import { describe, expect, it } from 'vitest';
import {
  expandGrid,
  GqrRetriever,
  prepareSweepQueries,
  sweepQueries,
  sweepPreparedQueriesInTasks,
  tracePrepared,
  type GqrPipelineSpec,
  type Retriever,
  type ScoredDoc,
  type SweepJob,
  type SweepPreparedQuery,
  type SweepProgress,
} from '../../core/index.ts';
import { signalOfPort } from '../../workers/abort-bridge.ts';
import { GqrWorkerPool, type GqrWorkerRemote, type PoolWorker } from './gqr-pool.ts';

const doc = (id: string, score: number): ScoredDoc => ({ id, score });
const queries = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, text: `query ${i}` }));
const child = (name: string, offset: number): Retriever => ({
  pipeline: name,
  config: {},
  async search(text, k) {
    const n = Number(text.split(' ')[1]);
    return Array.from({ length: 4 }, (_, j) => doc(`d${(n + j * offset) % 7}`, 4 - j + n / 10)).slice(0, k);
  },
});
const retriever = () => new GqrRetriever({ primary: child('p', 1), complementary: child('c', 3) });
const job: SweepJob = { points: expandGrid([{ key: 'mixtureAlpha', values: [0, 0.5, 1] }], { nSteps: 5 }), topK: 3, ccWeights: [0, 0.5, 1] };
const spec = { kind: 'gqr' } as unknown as GqrPipelineSpec;

/** The worker side of an abort port, logging `cancel@<worker>` when the pool aborts it. */
function workerSignal(port: MessagePort | undefined, log: string[], index: number): AbortSignal | undefined {
  const signal = signalOfPort(port);
  signal?.addEventListener('abort', () => log.push(`cancel@${index}`));
  return signal;
}

/** In-thread workers that record what they were asked to do; they run the core functions the real worker runs. */
function fakeWorkers(options: { blockPrepare?: Promise<void> } = {}) {
  const log: string[] = [];
  const create = (index: number): PoolWorker => {
    const api: GqrWorkerRemote = {
      async prepare(_corpusId, _spec, queryIds, topK, onProgress, abortPort) {
        log.push(`prepare@${index}`);
        const signal = workerSignal(abortPort, log, index);
        const gqr = retriever();
        const wanted = queries.filter((q) => !queryIds || queryIds.includes(q.id));
        await options.blockPrepare;
        const prepared: SweepPreparedQuery[] = await prepareSweepQueries(gqr, wanted, topK, (p) => onProgress?.(p.done, p.total), signal);
        return { prepared, config: { ...gqr.config }, loaded: [], elapsedMs: 1 };
      },
      async rerank(prepared, j, onQueryDone, abortPort) {
        log.push(`rerank@${index}:${prepared.map((p) => p.queryId).join(',')}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return sweepPreparedQueriesInTasks(prepared, j, onQueryDone, workerSignal(abortPort, log, index));
      },
      async trace(prepared, config, topK) {
        log.push(`trace@${index}`);
        return { ...tracePrepared(prepared, topK, config), primary: prepared.input.primary, complementary: prepared.input.complementary };
      },
      async inspect() {
        throw new Error('not used');
      },
      async forget() {},
    };
    return { api, terminate: () => log.push(`terminate@${index}`) };
  };
  return { log, create };
}

describe('GqrWorkerPool', () => {
  it('prepares on the lead worker once and spreads re-ranking over all workers; results equal a one-thread sweep', async () => {
    const { log, create } = fakeWorkers();
    const pool = new GqrWorkerPool(create, 2);
    const progress: SweepProgress[] = [];
    const result = await pool.sweep({ corpusId: 'c', spec, queryIds: null, job }, (p) => progress.push(p));
    expect(log.filter((l) => l.startsWith('prepare'))).toEqual(['prepare@0']);
    const reranked = log.filter((l) => l.startsWith('rerank')).flatMap((l) => l.split(':')[1]!.split(','));
    expect(reranked.sort()).toEqual(queries.map((q) => q.id).sort());
    expect(new Set(log.filter((l) => l.startsWith('rerank')).map((l) => l.split(':')[0]))).toEqual(new Set(['rerank@0', 'rerank@1']));
    expect(result.workersUsed).toBe(2);

    const alone = await sweepQueries(retriever(), queries, job);
    expect(result.runs.queryIds).toEqual(alone.queryIds);
    result.runs.points.forEach((p, i) => expect([...p.run]).toEqual([...alone.points[i]!.run]));
    expect([...result.runs.baselines.rrf]).toEqual([...alone.baselines.rrf]);

    const prepare = progress.filter((p) => p.phase === 'prepare');
    expect(prepare.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const rerank = progress.filter((p) => p.phase === 'rerank').map((p) => p.done);
    expect(rerank[0]).toBe(0);
    expect(rerank[rerank.length - 1]).toBe(10);
    expect([...rerank].sort((a, b) => a - b)).toEqual(rerank);
  });

  it('reports re-ranking progress after every query, not per chunk', async () => {
    const { create } = fakeWorkers();
    const pool = new GqrWorkerPool(create, 2);
    const progress: SweepProgress[] = [];
    await pool.sweep({ corpusId: 'c', spec, queryIds: null, job }, (p) => progress.push(p));
    expect(progress.filter((p) => p.phase === 'rerank').map((p) => p.done)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('uses fewer workers for a small query set', async () => {
    const { create } = fakeWorkers();
    const pool = new GqrWorkerPool(create, 4);
    const result = await pool.sweep({ corpusId: 'c', spec, queryIds: ['q1', 'q2', 'q3'], job });
    expect(result.workersUsed).toBe(1);
    expect(result.runs.queryIds).toEqual(['q1', 'q2', 'q3']);
  });

  it('cancelling while preparing stops the lead worker and rejects with AbortError', async () => {
    let release!: () => void;
    const { log, create } = fakeWorkers({ blockPrepare: new Promise<void>((resolve) => (release = resolve)) });
    const pool = new GqrWorkerPool(create, 2);
    const controller = new AbortController();
    const sweep = pool.sweep({ corpusId: 'c', spec, queryIds: null, job }, undefined, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    release();
    await expect(sweep).rejects.toMatchObject({ name: 'AbortError' });
    expect(log).toContain('cancel@0');
    expect(log.some((l) => l.startsWith('rerank'))).toBe(false);
  });

  it('cancelling while re-ranking stops handing out chunks', async () => {
    const { log, create } = fakeWorkers();
    const pool = new GqrWorkerPool(create, 1);
    const controller = new AbortController();
    const sweep = pool.sweep({ corpusId: 'c', spec, queryIds: null, job }, (p) => {
      if (p.phase === 'rerank' && p.done > 0) controller.abort();
    }, controller.signal);
    await expect(sweep).rejects.toMatchObject({ name: 'AbortError' });
    expect(log.filter((l) => l.startsWith('rerank'))).toHaveLength(1);
  });

  it('cancelling while re-ranking stops the helper workers at once; the next sweep starts new ones', async () => {
    const { log, create } = fakeWorkers();
    const pool = new GqrWorkerPool(create, 2);
    const controller = new AbortController();
    const sweep = pool.sweep({ corpusId: 'c', spec, queryIds: null, job }, (p) => {
      if (p.phase === 'rerank' && p.done === 0) queueMicrotask(() => controller.abort());
    }, controller.signal);
    await expect(sweep).rejects.toMatchObject({ name: 'AbortError' });
    expect(log.filter((l) => l.startsWith('terminate'))).toEqual(['terminate@1']);
    const again = await pool.sweep({ corpusId: 'c', spec, queryIds: null, job });
    expect(again.runs.queryIds).toHaveLength(10);
    expect(log.filter((l) => l.startsWith('rerank@1')).length).toBeGreaterThan(0);
  });

  it('traces a prepared query and terminates its workers on dispose', async () => {
    const { log, create } = fakeWorkers();
    const pool = new GqrWorkerPool(create, 2);
    const result = await pool.sweep({ corpusId: 'c', spec, queryIds: ['q1', 'q2', 'q3', 'q4', 'q5'], job });
    const inspection = await pool.trace(result.prepared[0]!, job.points[2]!.config, 3);
    expect(inspection.results).toEqual(result.runs.points[2]!.run.get('q1'));
    expect(inspection.trace.steps).toBe(5);
    pool.dispose();
    expect(log.filter((l) => l.startsWith('terminate'))).toEqual(['terminate@0', 'terminate@1']);
  });
});
