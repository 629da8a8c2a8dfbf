import * as Comlink from 'comlink';
import { create } from 'zustand';
import { aggregateBatch, type BatchProgress, type HdsEvent, type LlmProviderSettings, type ModelLoadProgress, type SavedBatchRun, type SavedQuestionRun } from '../../core/index.ts';
import type { BatchRunRequest, HdsWorkerEvent, QuestionRunRequest } from '../../workers/hds-worker-api.ts';
import { withAbortPort } from '../../workers/abort-bridge.ts';
import { errorMessage } from '../shared/format.ts';
import { queryClient } from '../services/query-client.ts';
import { agentRunsKey } from '../services/query-keys.ts';
import { getHdsWorker } from '../services/workers.ts';
import { FrameBatcher, mergeDeltas } from './frame-batcher.ts';
import { applyHdsEvent, timelineFromRun, type TimelineView } from './timeline-model.ts';


/** Which job the worker is running (one at a time). */
export type ActiveJob = 'question' | 'batch' | null;

interface RunState {
  active: ActiveJob;
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
  // Live events reach the timeline in one state update per frame; the end of the run is shown at once.
  const liveEvents = new FrameBatcher<HdsEvent>((events) => {
    if (get().active !== 'question') return;
    set((s) => ({ view: mergeDeltas(events).reduce(applyHdsEvent, s.view) }));
  });
  const onEvent = (event: HdsWorkerEvent) => {
    switch (event.type) {
      case 'run':
        if (get().active !== 'question') break;
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
  let controller: AbortController | null = null;
  // Runs a worker job with a fresh abort port (the signal's bridge into the worker).
  const withCancel = <T>(call: (port: MessagePort | undefined) => Promise<T>): Promise<T> => {
    controller = new AbortController();
    return withAbortPort(controller.signal, (port) => call(port && Comlink.transfer(port, [port]))).finally(() => (controller = null));
  };

  const batchJob = async (work: () => Promise<SavedBatchRun>) => {
    if (get().active) return;
    set({ active: 'batch', batchError: null, batchProgress: null });
    try {
      const run = await work();
      set({ batch: run, batchError: run.status === 'failed' ? (run.error ?? 'The batch failed.') : null });
    } catch (error) {
      set({ batchError: errorMessage(error) });
    } finally {
      set({ active: null, modelProgress: null });
      refreshSavedRuns();
    }
  };

  return {
    active: null,
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
      if (get().active) return;
      set((s) => ({ active: 'question', view: null, question: null, answers, replay: false, questionError: null, liveRuns: s.liveRuns + 1 }));
      try {
        const saved = await withCancel((port) => getHdsWorker().runQuestion(request, proxy, port));
        liveEvents.discard();
        set({ question: saved, view: saved.run.kind === 'hds' ? timelineFromRun(saved.run) : null });
      } catch (error) {
        liveEvents.flush();
        set({ questionError: errorMessage(error) });
      } finally {
        liveEvents.discard();
        set({ active: null, modelProgress: null });
        refreshSavedRuns();
      }
    },
    runBatch: (request) => batchJob(() => withCancel((port) => getHdsWorker().runBatch(request, proxy, port))),
    resumeBatch: (runId, provider) => batchJob(() => withCancel((port) => getHdsWorker().resumeBatch(runId, provider, proxy, port))),
    cancel() {
      controller?.abort(new DOMException('The run was cancelled', 'AbortError'));
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
      if (get().active !== 'batch') set({ batch: null, batchProgress: null, batchError: null });
    },
  };
});
