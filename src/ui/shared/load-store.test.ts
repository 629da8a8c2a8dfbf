import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { IngestSummary, LoadProgress } from '../../core/index.ts';
import { signalOfPort } from '../../workers/abort-bridge.ts';

// The corpus worker, as the store reaches it through ui/services (a Web Worker in the app).
const worker = vi.hoisted(() => ({ load: vi.fn() }));
vi.mock('../services/workers.ts', () => ({ getCorpusWorker: () => worker }));
vi.mock('../services/stores.ts', () => ({ requestPersistence: async () => false }));
const announced = vi.hoisted(() => ({ count: 0 }));
vi.mock('./corpora-channel.ts', () => ({ announceCorporaChanged: async () => void announced.count++ }));

const { startLoad, useLoadStore } = await import('./load-store.ts');

const summary: IngestSummary = { documents: 0, queries: 0, qrels: 0, files: [], issues: [{ file: 'a.jsonl', line: 1, reason: 'not JSON' }], issueCount: 1 } as unknown as IngestSummary;
const progress = { phase: 'reading', bytesDone: 10, bytesTotal: 100, documents: 5, issueCount: 0 } as unknown as LoadProgress;

describe('load store', () => {
  beforeEach(() => {
    useLoadStore.setState({ state: { status: 'idle' } });
    worker.load.mockReset();
    announced.count = 0;
  });

  it('shows the worker progress while loading and the corpus with its report when done', async () => {
    const corpus = { id: 'c1', name: 'Mine' };
    let report!: (p: LoadProgress) => void;
    let finish!: () => void;
    worker.load.mockImplementation((_files, _options, onProgress) => {
      report = onProgress;
      return new Promise((resolve) => (finish = () => resolve({ corpus, summary: { ...summary, documents: 5, issueCount: 0, issues: [] } })));
    });
    const loaded = startLoad([], { name: 'Mine' });
    expect(useLoadStore.getState().state).toMatchObject({ status: 'running', info: { name: 'Mine' }, progress: null });
    await vi.waitFor(() => expect(worker.load).toHaveBeenCalled());
    report(progress);
    expect(useLoadStore.getState().state).toMatchObject({ status: 'running', progress });
    finish();
    await expect(loaded).resolves.toEqual(corpus);
    expect(useLoadStore.getState().state).toMatchObject({ status: 'done', result: { corpus, summary: { documents: 5 } } });
    expect(announced.count).toBe(1);
  });

  it('a load in which nothing survives fails with the worker words and keeps its skipped lines', async () => {
    worker.load.mockResolvedValue({ corpus: null, summary, message: 'No document could be loaded: all 1 problems are listed below.' });
    await expect(startLoad([], { name: 'Bad' })).resolves.toBeNull();
    const state = useLoadStore.getState().state;
    expect(state).toMatchObject({ status: 'failed', message: 'No document could be loaded: all 1 problems are listed below.' });
    expect(state.status === 'failed' && state.details?.issues).toEqual([{ file: 'a.jsonl', line: 1, reason: 'not JSON' }]);
  });

  it('cancel reads "cancelling" at once, aborts the worker through its port, then "cancelled"', async () => {
    let heard: string | null = null;
    worker.load.mockImplementation((_files, _options, _onProgress, port?: MessagePort) => {
      const signal = signalOfPort(port)!;
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          heard = (signal.reason as Error).message;
          reject(signal.reason);
        }),
      );
    });
    const loaded = startLoad([], { name: 'Big' });
    await vi.waitFor(() => expect(worker.load).toHaveBeenCalled());
    useLoadStore.getState().cancel();
    expect(useLoadStore.getState().state.status).toBe('cancelling');
    await expect(loaded).resolves.toBeNull();
    expect(heard).toBe('Loading was cancelled');
    expect(useLoadStore.getState().state).toMatchObject({ status: 'cancelled', info: { name: 'Big' } });
    expect(announced.count).toBe(1);
  });
});
