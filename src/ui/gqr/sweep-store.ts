import { create } from 'zustand';
import { runSweep, type CorpusRecord, type GqrPipelineSpec, type GridAxis, type SavedSweep, type SweepDeps, type SweepPreparedQuery } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { getCorpusStore, getRunStore, getVectorStore } from '../services/stores.ts';
import { browserEnvironmentSource } from '../../workers/browser-environment.ts';
import { refreshRuns } from '../shared/runs.ts';
import { getGqrPool } from './gqr-pool.ts';

/** What the lab's form asks for. */
export interface SweepRequest {
  corpus: CorpusRecord;
  name: string;
  /** The GQR pipeline; its config is the base the grid overrides. */
  spec: GqrPipelineSpec;
  axes: GridAxis[];
  topK: number;
  measures: string[];
}

/** A running or finished sweep job; kept outside the page so a sweep survives switching pages. */
export type SweepJobState =
  | { status: 'idle' }
  | { status: 'running'; name: string; corpusId: string; phase: 'prepare' | 'rerank' | 'save'; done: number; total: number; startedAt: number; points: number }
  | { status: 'done'; sweepId: string }
  | { status: 'cancelled'; name: string }
  | { status: 'failed'; name: string; message: string };

interface SweepStore {
  state: SweepJobState;
  /** The sweep shown (just run, or picked from the saved ones). */
  current: SavedSweep | null;
  /** Prepared queries of the sweep just run, by query id (the inspector reuses them; gone after a reload). */
  prepared: { sweepId: string; byQuery: Map<string, SweepPreparedQuery> } | null;
  start(request: SweepRequest): Promise<void>;
  cancel(): void;
  show(sweep: SavedSweep | null): void;
  dismiss(): void;
}

let controller: AbortController | null = null;

export const useSweepStore = create<SweepStore>((set, get) => ({
  state: { status: 'idle' },
  current: null,
  prepared: null,

  async start({ corpus, name, spec, axes, topK, measures }) {
    if (get().state.status === 'running') return;
    set({ state: { status: 'running', name, corpusId: corpus.id, phase: 'prepare', done: 0, total: corpus.queryCount, startedAt: performance.now(), points: 0 } });
    controller = new AbortController();
    const { signal } = controller;
    try {
      const deps = {
        corpora: await getCorpusStore(),
        runs: await getRunStore(),
        compute: (job, onProgress, signal) => getGqrPool().sweep({ corpusId: corpus.id, spec, queryIds: null, job }, onProgress, signal),
      } satisfies SweepDeps;
      const environment = await browserEnvironmentSource(await getVectorStore(), corpus.id);
      const { sweep, computation } = await runSweep({ corpusId: corpus.id, name, spec, axes, topK, measures, environment }, deps, {
        signal,
        onProgress: (p) =>
          set((s) => (s.state.status === 'running' ? { state: { ...s.state, phase: p.phase, done: p.done, total: p.total, points: p.points } } : s)),
      });
      await refreshRuns(corpus.id);
      set({
        state: { status: 'done', sweepId: sweep.id },
        current: sweep,
        prepared: { sweepId: sweep.id, byQuery: new Map((computation.prepared ?? []).map((p) => [p.queryId, p])) },
      });
    } catch (error) {
      const aborted = (error as Error)?.name === 'AbortError';
      set({ state: aborted ? { status: 'cancelled', name } : { status: 'failed', name, message: errorMessage(error) } });
    } finally {
      controller = null;
    }
  },

  cancel() {
    controller?.abort();
  },

  show(sweep) {
    set({ current: sweep });
  },

  dismiss() {
    if (get().state.status !== 'running') set({ state: { status: 'idle' } });
  },
}));
