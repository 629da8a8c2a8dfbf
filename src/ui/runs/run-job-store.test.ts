import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CorpusRecord, RunRecord } from '../../core/index.ts';
import { signalOfPort } from '../../workers/abort-bridge.ts';

const worker = vi.hoisted(() => ({ runQuerySet: vi.fn() }));
vi.mock('../services/workers.ts', () => ({ getRetrievalWorker: () => worker }));
const refreshed = vi.hoisted(() => [] as string[]);
vi.mock('../shared/runs.ts', () => ({ refreshRuns: async (corpusId: string, runId?: string) => void refreshed.push(`${corpusId}/${runId}`) }));

const { runProgressOf, startRun, useRunJobStore } = await import('./run-job-store.ts');

const corpus = { id: 'c1', name: 'Sample', queryCount: 3 } as CorpusRecord;
const request = { corpus, spec: { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } }, k: 10, name: 'BM25', measures: ['nDCG@10'] } as const;

describe('run job store', () => {
  beforeEach(() => {
    useRunJobStore.setState({ state: { status: 'idle' } });
    worker.runQuerySet.mockReset();
    refreshed.length = 0;
  });

  it('counts queries, says "saving" after the last one, and ends with the saved record', async () => {
    let report!: (done: number, total: number) => void;
    let finish!: (record: RunRecord) => void;
    worker.runQuerySet.mockImplementation((_request, onProgress) => {
      report = onProgress;
      return new Promise((resolve) => (finish = resolve));
    });
    const run = startRun(request as never);
    expect(useRunJobStore.getState().state).toMatchObject({ status: 'running', info: { name: 'BM25', corpusId: 'c1' }, progress: { done: 0, total: 3, saving: false } });
    await vi.waitFor(() => expect(worker.runQuerySet).toHaveBeenCalled());
    expect(worker.runQuerySet.mock.calls[0]![0]).toEqual({ corpusId: 'c1', spec: request.spec, k: 10, name: 'BM25', measures: ['nDCG@10'] });
    report(1, 3);
    expect(useRunJobStore.getState().state).toMatchObject({ progress: { done: 1, total: 3, saving: false } });
    report(3, 3);
    expect(useRunJobStore.getState().state).toMatchObject({ status: 'running', progress: { saving: true } });
    finish({ id: 'r1', corpusId: 'c1' } as RunRecord);
    await run;
    expect(useRunJobStore.getState().state).toMatchObject({ status: 'done', result: { id: 'r1' } });
    expect(refreshed).toEqual(['c1/r1']);
  });

  it('cancel shows cancelling, stops the worker through its abort port, and nothing is refreshed as saved', async () => {
    worker.runQuerySet.mockImplementation((_request, _onProgress, port?: MessagePort) => {
      const signal = signalOfPort(port)!;
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const run = startRun(request as never);
    await vi.waitFor(() => expect(worker.runQuerySet).toHaveBeenCalled());
    useRunJobStore.getState().cancel();
    expect(useRunJobStore.getState().state.status).toBe('cancelling');
    await run;
    expect(useRunJobStore.getState().state).toMatchObject({ status: 'cancelled', info: { name: 'BM25' } });
    expect(refreshed).toEqual([]);
  });

  it('a failing run keeps the worker words', async () => {
    worker.runQuerySet.mockRejectedValue(new Error('No embedding set “tiny-bert” for this corpus'));
    await startRun(request as never);
    expect(useRunJobStore.getState().state).toMatchObject({ status: 'failed', message: 'No embedding set “tiny-bert” for this corpus' });
  });

  it('runProgressOf: saving exactly once every query is done', () => {
    expect(runProgressOf(0, 3)).toEqual({ done: 0, total: 3, saving: false });
    expect(runProgressOf(3, 3)).toEqual({ done: 3, total: 3, saving: true });
  });
});
