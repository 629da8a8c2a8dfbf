import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { IngestSummary, LoadCorpusOptions, LoadProgress } from '../../core/index.ts';
import type { LoadedCorpusInfo, PickedFile } from '../../workers/corpus-worker-api.ts';
import type { CorpusRecord } from '../../core/index.ts';
import { errorMessage } from './format.ts';
import { announceCorporaChanged } from './corpora-channel.ts';
import { requestPersistence } from '../services/stores.ts';
import { getCorpusWorker } from '../services/workers.ts';
import { withAbortPort } from '../../workers/abort-bridge.ts';

/** The state of loading one corpus, shown by the progress and report views. */
export type LoadState =
  | { status: 'idle' }
  | { status: 'running'; name: string; startedAt: number; progress: LoadProgress | null }
  | { status: 'done'; corpus: CorpusRecord; summary: IngestSummary; seconds: number }
  | { status: 'cancelled'; name: string }
  | { status: 'failed'; name: string; message: string; summary?: IngestSummary };

interface LoadStore {
  state: LoadState;
  start(files: PickedFile[], options: LoadCorpusOptions): Promise<CorpusRecord | null>;
  cancel(): void;
  dismiss(): void;
}

let controller: AbortController | null = null;

export const useLoadStore = create<LoadStore>((set, get) => ({
  state: { status: 'idle' },
  async start(files, options) {
    if (get().state.status === 'running') return null;
    const startedAt = performance.now();
    set({ state: { status: 'running', name: options.name, startedAt, progress: null } });
    void requestPersistence();
    const onProgress = (progress: LoadProgress) =>
      set((s) => (s.state.status === 'running' ? { state: { ...s.state, progress } } : s));
    try {
      controller = new AbortController();
      const loaded = await withAbortPort<LoadedCorpusInfo>(controller.signal, (port) =>
        getCorpusWorker().load(files, options, Comlink.proxy(onProgress), port && Comlink.transfer(port, [port])),
      );
      if (loaded.corpus === null) {
        set({ state: { status: 'failed', name: options.name, message: loaded.message, summary: loaded.summary } });
        return null;
      }
      const { corpus, summary } = loaded;
      set({ state: { status: 'done', corpus, summary, seconds: (performance.now() - startedAt) / 1000 } });
      return corpus;
    } catch (error) {
      const aborted = (error as Error)?.name === 'AbortError';
      set({ state: aborted ? { status: 'cancelled', name: options.name } : { status: 'failed', name: options.name, message: errorMessage(error) } });
      return null;
    } finally {
      controller = null;
      void announceCorporaChanged();
    }
  },
  cancel() {
    controller?.abort(new DOMException('Loading was cancelled', 'AbortError'));
  },
  dismiss() {
    if (get().state.status !== 'running') set({ state: { status: 'idle' } });
  },
}));
