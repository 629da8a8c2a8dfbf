import { create } from 'zustand';
import {
  buildQrelsMap,
  DEFAULT_CC_WEIGHTS,
  evaluateSweep,
  expandGrid,
  type CorpusRecord,
  type GqrPipelineSpec,
  type GridAxis,
  type SweepPreparedQuery,
} from '../../core/index.ts';
import { errorMessage } from '../common/format.ts';
import { saveRun } from '../state/runs.ts';
import { getCorpusStore } from '../state/storage.ts';
import { getGqrPool } from './gqr-pool.ts';
import { sweepRunRecords, type LabSweep } from './lab-sweep.ts';

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
  current: LabSweep | null;
  /** Prepared queries of the sweep just run, by query id (the inspector reuses them; gone after a reload). */
  prepared: { sweepId: string; byQuery: Map<string, SweepPreparedQuery> } | null;
  start(request: SweepRequest): Promise<void>;
  cancel(): void;
  show(sweep: LabSweep | null): void;
  dismiss(): void;
}

let controller: AbortController | null = null;

export const useSweepStore = create<SweepStore>((set, get) => ({
  state: { status: 'idle' },
  current: null,
  prepared: null,

  async start({ corpus, name, spec, axes, topK, measures }) {
    if (get().state.status === 'running') return;
    const startedAt = performance.now();
    let points;
    try {
      points = expandGrid(axes, spec.config);
    } catch (error) {
      set({ state: { status: 'failed', name, message: errorMessage(error) } });
      return;
    }
    set({ state: { status: 'running', name, corpusId: corpus.id, phase: 'prepare', done: 0, total: corpus.queryCount, startedAt, points: points.length } });
    controller = new AbortController();
    const { signal } = controller;
    try {
      const job = { points, topK, ccWeights: DEFAULT_CC_WEIGHTS };
      const result = await getGqrPool().sweep({ corpusId: corpus.id, spec, queryIds: null, job }, (p) =>
        set((s) => (s.state.status === 'running' ? { state: { ...s.state, phase: p.phase, done: p.done, total: p.total } } : s)),
      signal);
      set((s) => (s.state.status === 'running' ? { state: { ...s.state, phase: 'save' } } : s));
      const qrels = buildQrelsMap(await (await getCorpusStore()).getQrels(corpus.id));
      const evaluation = evaluateSweep(result.runs, qrels, measures);
      if (evaluation.evaluatedQueries === 0) throw new Error('No query of this corpus has a relevant judgement, so the sweep cannot be scored.');
      const sweep: Omit<LabSweep, 'runIds' | 'evaluation'> = {
        id: `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        name,
        corpusId: corpus.id,
        corpusName: corpus.name,
        createdAt: Date.now(),
        spec,
        topK,
        axes,
        points,
        queryCount: result.runs.queryIds.length,
        elapsedMs: performance.now() - startedAt,
        childFallbacks: Object.keys(result.runs.childFallbacks).length,
      };
      const { records, runIds } = sweepRunRecords({ sweep, runs: result.runs, evaluation, qrels, retrieverConfig: result.config });
      for (const record of records) await saveRun(record);
      set({
        state: { status: 'done', sweepId: sweep.id },
        current: { ...sweep, evaluation, runIds },
        prepared: { sweepId: sweep.id, byQuery: new Map(result.prepared.map((p) => [p.queryId, p])) },
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
