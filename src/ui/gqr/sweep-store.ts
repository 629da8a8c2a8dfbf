import { create } from 'zustand';
import { runSweep, type CorpusRecord, type GqrPipelineSpec, type GridAxis, type SavedSweep, type SweepDeps, type SweepPreparedQuery } from '../../core/index.ts';
import { createJobStore, type JobState } from '../shared/job-store.ts';
import { getCorpusStore, getRunStore } from '../services/stores.ts';
import { runEnvironmentOf } from '../services/run-environment.ts';
import { refreshRuns } from '../shared/runs.ts';
import { getGqrPool } from '../services/gqr-pool.ts';

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

/** What runSweep reports: phase, queries done of total, grid points. */
export type SweepJobProgress = Parameters<NonNullable<NonNullable<Parameters<typeof runSweep>[2]>['onProgress']>>[0];

/** A running or finished sweep job; kept outside the page so a sweep survives switching pages. */
export type SweepJobState = JobState<{ name: string; corpusId: string }, SweepJobProgress, { sweepId: string }>;

/** The sweep job of the lab (one at a time). Every progress event is rendered as it arrives, nothing interpolated. */
export const useSweepJob = createJobStore<{ name: string; corpusId: string }, SweepJobProgress, { sweepId: string }>({ cancelMessage: 'The sweep was cancelled' });

interface SweepView {
  /** The sweep shown (just run, or picked from the saved ones). */
  current: SavedSweep | null;
  /** Prepared queries of the sweep just run, by query id (the inspector reuses them; gone after a reload). */
  prepared: { sweepId: string; byQuery: Map<string, SweepPreparedQuery> } | null;
  show(sweep: SavedSweep | null): void;
}

export const useSweepStore = create<SweepView>((set) => ({
  current: null,
  prepared: null,
  show(sweep) {
    set({ current: sweep });
  },
}));

/** Runs a sweep over the GQR worker pool and saves its points as runs; the saved sweep is then shown. */
export async function startSweep({ corpus, name, spec, axes, topK, measures }: SweepRequest): Promise<void> {
  const initial: SweepJobProgress = { phase: 'prepare', done: 0, total: corpus.queryCount, points: 0 };
  await useSweepJob.getState().start({ name, corpusId: corpus.id }, initial, async ({ signal, progress }) => {
    const deps = {
      corpora: await getCorpusStore(),
      runs: await getRunStore(),
      compute: (job, onProgress, signal) => getGqrPool().sweep({ corpusId: corpus.id, spec, queryIds: null, job }, onProgress, signal),
    } satisfies SweepDeps;
    const environment = await runEnvironmentOf(corpus.id);
    const { sweep, computation } = await runSweep({ corpusId: corpus.id, name, spec, axes, topK, measures, environment }, deps, { signal, onProgress: progress });
    await refreshRuns(corpus.id);
    useSweepStore.setState({
      current: sweep,
      prepared: { sweepId: sweep.id, byQuery: new Map((computation.prepared ?? []).map((p) => [p.queryId, p])) },
    });
    return { sweepId: sweep.id };
  });
}
