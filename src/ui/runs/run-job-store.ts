import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { CorpusRecord, PipelineSpec, RunRecord } from '../../core/index.ts';
import { withAbortPort } from '../../workers/abort-bridge.ts';
import { errorMessage } from '../shared/format.ts';
import { refreshRuns } from '../shared/runs.ts';
import { getRetrievalWorker } from '../services/workers.ts';

/** What a run of a query set needs. */
export interface RunJobRequest {
  corpus: CorpusRecord;
  spec: PipelineSpec;
  k: number;
  name: string;
  measures: string[];
}

/** The state of running a query set; kept outside the page so that a run survives switching pages. */
export type RunJobState =
  | { status: 'idle' }
  | { status: 'running'; name: string; corpusId: string; done: number; total: number; startedAt: number }
  | { status: 'saving'; name: string; corpusId: string }
  | { status: 'done'; record: RunRecord }
  | { status: 'cancelled'; name: string }
  | { status: 'failed'; name: string; message: string };

interface RunJobStore {
  state: RunJobState;
  start(request: RunJobRequest): Promise<void>;
  cancel(): void;
  dismiss(): void;
}

let controller: AbortController | null = null;

export const useRunJobStore = create<RunJobStore>((set, get) => ({
  state: { status: 'idle' },
  async start({ corpus, spec, k, name, measures }) {
    const status = get().state.status;
    if (status === 'running' || status === 'saving') return;
    set({ state: { status: 'running', name, corpusId: corpus.id, done: 0, total: corpus.queryCount, startedAt: performance.now() } });
    // After the last query the worker scores and saves the run.
    const onProgress = (done: number, total: number) =>
      set((s) => (s.state.status !== 'running' ? s : done < total ? { state: { ...s.state, done, total } } : { state: { status: 'saving', name, corpusId: corpus.id } }));
    controller = new AbortController();
    try {
      const request = { corpusId: corpus.id, spec, k, name, measures };
      const record = await withAbortPort(controller.signal, (port) =>
        getRetrievalWorker().runQuerySet(request, Comlink.proxy(onProgress), port && Comlink.transfer(port, [port])),
      );
      await refreshRuns(record.corpusId, record.id);
      set({ state: { status: 'done', record } });
    } catch (error) {
      const aborted = (error as Error)?.name === 'AbortError';
      set({ state: aborted ? { status: 'cancelled', name } : { status: 'failed', name, message: errorMessage(error) } });
    } finally {
      controller = null;
    }
  },
  cancel() {
    controller?.abort(new DOMException('The run was cancelled', 'AbortError'));
  },
  dismiss() {
    const status = get().state.status;
    if (status !== 'running' && status !== 'saving') set({ state: { status: 'idle' } });
  },
}));
