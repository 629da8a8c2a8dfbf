import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedBatchRun, SavedQuestionRun } from '../../core/index.ts';
import { signalOfPort } from '../../workers/abort-bridge.ts';

const worker = vi.hoisted(() => ({ runQuestion: vi.fn(), runBatch: vi.fn(), resumeBatch: vi.fn() }));
vi.mock('../services/workers.ts', () => ({ getHdsWorker: () => worker }));

const { useHdsJob, useHdsRun } = await import('./run-state.ts');

const request = { corpusId: 'c1', question: 'Where?' } as never;
/** A worker call that ends only through its abort port, resolving with the saved (cancelled) run as the worker does. */
const untilAborted = (saved: unknown) => (_request: unknown, _onEvent: unknown, port?: MessagePort) => {
  const signal = signalOfPort(port)!;
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(saved)));
};

describe('Deep search job', () => {
  beforeEach(() => {
    useHdsJob.setState({ state: { status: 'idle' } });
    useHdsRun.setState({ question: null, questionError: null, batch: null, batchError: null });
    for (const f of Object.values(worker)) f.mockReset();
  });

  it('a question: running, then cancelling at once on cancel, then the saved cancelled run', async () => {
    const saved = { id: 'q1', status: 'cancelled', corpusId: 'c1', run: { kind: 'single-shot' } } as unknown as SavedQuestionRun;
    worker.runQuestion.mockImplementation(untilAborted(saved));
    const run = useHdsRun.getState().runQuestion(request, undefined);
    expect(useHdsJob.getState().state).toMatchObject({ status: 'running', info: { kind: 'question' } });
    await vi.waitFor(() => expect(worker.runQuestion).toHaveBeenCalled());
    // A batch cannot start while the question runs.
    await useHdsRun.getState().runBatch(request);
    expect(worker.runBatch).not.toHaveBeenCalled();
    useHdsRun.getState().cancel();
    expect(useHdsJob.getState().state.status).toBe('cancelling');
    await run;
    expect(useHdsRun.getState().question).toBe(saved);
    expect(useHdsRun.getState().questionError).toBeNull();
  });

  it('a question that cannot start says why in words', async () => {
    worker.runQuestion.mockRejectedValue(new Error('The model name is empty.'));
    await useHdsRun.getState().runQuestion(request, undefined);
    expect(useHdsRun.getState().questionError).toBe('The model name is empty.');
    expect(useHdsJob.getState().state).toMatchObject({ status: 'failed', info: { kind: 'question' } });
  });

  it('a batch: a failed batch run and a rejected call both become the batch error', async () => {
    worker.runBatch.mockResolvedValue({ id: 'b1', status: 'failed', error: 'HTTP 401 from the endpoint', items: [], questions: [], variants: [] } as unknown as SavedBatchRun);
    await useHdsRun.getState().runBatch(request);
    expect(useHdsRun.getState().batchError).toBe('HTTP 401 from the endpoint');
    worker.resumeBatch.mockRejectedValue(new Error('No batch run b2'));
    await useHdsRun.getState().resumeBatch('b2', {} as never);
    expect(useHdsRun.getState().batchError).toBe('No batch run b2');
  });
});
