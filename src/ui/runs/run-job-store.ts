import * as Comlink from 'comlink';
import { create } from 'zustand';
import { buildQrelsMap, buildRunRecord, modelsOfPipeline, type CorpusRecord, type PipelineSpec, type RunRecord } from '../../core/index.ts';
import { errorMessage } from '../common/format.ts';
import { saveRun } from '../state/runs.ts';
import { getCorpusStore } from '../state/storage.ts';
import { getRetrievalWorker } from '../state/workers.ts';

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

export const useRunJobStore = create<RunJobStore>((set, get) => ({
  state: { status: 'idle' },
  async start({ corpus, spec, k, name, measures }) {
    const status = get().state.status;
    if (status === 'running' || status === 'saving') return;
    set({ state: { status: 'running', name, corpusId: corpus.id, done: 0, total: corpus.queryCount, startedAt: performance.now() } });
    const onProgress = (done: number, total: number) =>
      set((s) => (s.state.status === 'running' ? { state: { ...s.state, done, total } } : s));
    try {
      const result = await getRetrievalWorker().runQuerySet(corpus.id, spec, k, Comlink.proxy(onProgress));
      set({ state: { status: 'saving', name, corpusId: corpus.id } });
      const qrels = buildQrelsMap(await (await getCorpusStore()).getQrels(corpus.id));
      const record = buildRunRecord({
        name,
        corpusId: corpus.id,
        corpusName: corpus.name,
        pipeline: spec,
        config: result.config,
        run: result.run,
        k,
        qrels,
        measures,
        elapsedMs: result.elapsedMs,
        models: modelsOfPipeline(spec),
      });
      await saveRun(record);
      set({ state: { status: 'done', record } });
    } catch (error) {
      const aborted = (error as Error)?.name === 'AbortError';
      set({ state: aborted ? { status: 'cancelled', name } : { status: 'failed', name, message: errorMessage(error) } });
    }
  },
  cancel() {
    void getRetrievalWorker().cancel();
  },
  dismiss() {
    const status = get().state.status;
    if (status !== 'running' && status !== 'saving') set({ state: { status: 'idle' } });
  },
}));
