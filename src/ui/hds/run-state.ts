import * as Comlink from 'comlink';
import { create } from 'zustand';
import { aggregateBatch, type BatchProgress, type HdsEvent, type LlmProviderSettings, type ModelLoadProgress, type SavedBatchRun, type SavedQuestionRun } from '../../core/index.ts';
import type { BatchRunRequest, HdsWorkerEvent, QuestionRunRequest } from '../../workers/hds-worker-api.ts';
import { withAbortPort } from '../services/abort-port.ts';
import { createJobStore, isActive } from '../shared/job-store.ts';
import { queryClient } from '../services/query-client.ts';
import { agentRunsKey } from '../services/query-keys.ts';
import { getHdsWorker } from '../services/workers.ts';
import { FrameBatcher, mergeDeltas } from './frame-batcher.ts';
import { applyHdsEvent, timelineFromRun, type TimelineView } from './timeline-model.ts';


/** Which job the worker is running (one at a time). */
export type ActiveJob = 'question' | 'batch' | null;

/** The worker's job (a question or a batch): running, cancelling, and how it ended. */
export const useHdsJob = createJobStore<{ kind: 'question' | 'batch' }, null, void>({ cancelMessage: 'The run was cancelled' });

/** The job running or being cancelled, if any. */
export function useActiveHdsJob(): ActiveJob {
  return useHdsJob((s) => (isActive(s.state) ? s.state.info.kind : null));
}

/** Whether cancel was asked for and the worker has not stopped yet. */
export function useHdsCancelling(): boolean {
  return useHdsJob((s) => s.state.status === 'cancelling');
}

/** The words of the job's failure, when the last job of this kind failed. */
function failureOf(kind: 'question' | 'batch'): string | null {
  const s = useHdsJob.getState().state;
  return s.status === 'failed' && s.info.kind === kind ? s.message : null;
}

interface RunState {
  /** Live or replayed HDS timeline of the question panel. */
  view: TimelineView | null;
  /** The finished (or opened) question run. */
  question: SavedQuestionRun | null;
  /** Gold answers of the question being run, when it came from the corpus. */
  answers: string[] | undefined;
  /** Whether `question` was opened from the saved runs (a replay). */
  replay: boolean;
  /** Counts question runs started here (a new live timeline for each). */
  liveRuns: number;
  questionError: string | null;
  /** The batch being run or opened. */
  batch: SavedBatchRun | null;
  batchProgress: BatchProgress | null;
  batchError: string | null;
  /** Download progress of an in-browser model. */
  modelProgress: ModelLoadProgress | null;
  runQuestion(request: QuestionRunRequest, answers: string[] | undefined): Promise<void>;
  runBatch(request: BatchRunRequest): Promise<void>;
  resumeBatch(runId: string, provider: LlmProviderSettings): Promise<void>;
  cancel(): void;
  openQuestion(run: SavedQuestionRun): void;
  openBatch(run: SavedBatchRun): void;
  clearBatch(): void;
}

function refreshSavedRuns() {
  void queryClient.invalidateQueries({ queryKey: agentRunsKey });
}

export const useHdsRun = create<RunState>((set, get) => {
  // Live events reach the timeline in one state update per frame; the end of the run is shown at once, and a
  // retrieval that starts is shown running for at least one frame.
  const liveEvents = new FrameBatcher<HdsEvent>(
    (events) => {
      if (activeKind() !== 'question') return;
      set((s) => ({ view: mergeDeltas(events).reduce(applyHdsEvent, s.view) }));
    },
    undefined,
    (event) => event.type === 'retrieval-start',
  );
  const onEvent = (event: HdsWorkerEvent) => {
    switch (event.type) {
      case 'run':
        if (activeKind() !== 'question') break;
        liveEvents.push(event.event);
        if (event.event.type === 'done') liveEvents.flush();
        break;
      case 'model-progress':
        set({ modelProgress: event.progress.status === 'ready' ? null : event.progress });
        break;
      case 'batch-started':
        set({ batch: event.run, batchProgress: { done: event.run.items.length, total: event.run.questions.length * event.run.variants.length } });
        refreshSavedRuns();
        break;
      case 'batch-progress':
        set({ batchProgress: event.progress });
        break;
      case 'batch-item':
        set((s) => {
          if (!s.batch || s.batch.id !== event.runId) return s;
          const items = [...s.batch.items.filter((i) => !(i.questionId === event.item.questionId && i.variantId === event.item.variantId)), event.item];
          return { batch: { ...s.batch, items, aggregates: s.batch.variants.map((v) => aggregateBatch(items, v.id)) } };
        });
        break;
    }
  };
  const proxy = Comlink.proxy(onEvent);
  const activeKind = (): ActiveJob => {
    const s = useHdsJob.getState().state;
    return isActive(s) ? s.info.kind : null;
  };
  // The job's signal crosses into the worker as a port (abort-bridge.ts).
  const withPort = <T>(signal: AbortSignal, call: (port: MessagePort | undefined) => Promise<T>): Promise<T> =>
    withAbortPort(signal, (port) => call(port && Comlink.transfer(port, [port])));

  const batchJob = async (work: (signal: AbortSignal) => Promise<SavedBatchRun>) => {
    if (activeKind()) return;
    set({ batchError: null, batchProgress: null });
    try {
      await useHdsJob.getState().start({ kind: 'batch' }, null, async ({ signal }) => {
        const run = await work(signal);
        set({ batch: run, batchError: run.status === 'failed' ? (run.error ?? 'The batch failed.') : null });
      });
      const failed = failureOf('batch');
      if (failed) set({ batchError: failed });
    } finally {
      set({ modelProgress: null });
      refreshSavedRuns();
    }
  };

  return {
    view: null,
    question: null,
    answers: undefined,
    replay: false,
    liveRuns: 0,
    questionError: null,
    batch: null,
    batchProgress: null,
    batchError: null,
    modelProgress: null,
    async runQuestion(request, answers) {
      if (activeKind()) return;
      set((s) => ({ view: null, question: null, answers, replay: false, questionError: null, liveRuns: s.liveRuns + 1 }));
      try {
        await useHdsJob.getState().start({ kind: 'question' }, null, async ({ signal }) => {
          const saved = await withPort(signal, (port) => getHdsWorker().runQuestion(request, proxy, port));
          liveEvents.discard();
          set({ question: saved, view: saved.run.kind === 'hds' ? timelineFromRun(saved.run) : null });
        });
        // A failed or cancelled run keeps what it streamed on the timeline.
        liveEvents.flush();
        set({ questionError: failureOf('question') });
      } finally {
        liveEvents.discard();
        set({ modelProgress: null });
        refreshSavedRuns();
      }
    },
    runBatch: (request) => batchJob((signal) => withPort(signal, (port) => getHdsWorker().runBatch(request, proxy, port))),
    resumeBatch: (runId, provider) => batchJob((signal) => withPort(signal, (port) => getHdsWorker().resumeBatch(runId, provider, proxy, port))),
    cancel() {
      useHdsJob.getState().cancel();
    },
    openQuestion(run) {
      set({
        question: run,
        view: run.run.kind === 'hds' ? timelineFromRun(run.run) : null,
        answers: run.answers,
        replay: true,
        questionError: null,
      });
    },
    openBatch(run) {
      set({ batch: run, batchProgress: null, batchError: run.error ?? null });
    },
    clearBatch() {
      if (activeKind() !== 'batch') set({ batch: null, batchProgress: null, batchError: null });
    },
  };
});
