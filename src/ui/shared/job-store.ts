// One state machine for every long job a page starts (load, embed, run, sweep, deep search):
// idle → running → cancelling → done | failed | cancelled, with progress, the start time, the error's words and
// one AbortController per job. Pages render the state; `cancel()` shows "Cancelling…" at once, before the
// worker has noticed.
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { abortError, isAbortError } from '../../core/index.ts';
import { errorMessage } from './format.ts';

/** The state of one job. `info` says what the job is (name, corpus), `progress` how far it got. */
export type JobState<Info, Progress, Result, Details = never> =
  | { status: 'idle' }
  | { status: 'running' | 'cancelling'; info: Info; startedAt: number; progress: Progress }
  | { status: 'done'; info: Info; startedAt: number; seconds: number; progress: Progress; result: Result }
  | { status: 'cancelled'; info: Info; startedAt: number; progress: Progress }
  | { status: 'failed'; info: Info; startedAt: number; progress: Progress; message: string; details?: Details };

/** What a job's work gets: the signal that cancel() aborts and a way to report progress. */
export interface JobContext<Progress> {
  signal: AbortSignal;
  /** Replaces the progress (or updates it from the last one); ignored once the job has ended. */
  progress(update: Progress | ((last: Progress) => Progress)): void;
}

/** Thrown by a job's work to fail with words and details the page shows (e.g. the skipped lines of a load). */
export class JobFailure<Details> extends Error {
  constructor(
    message: string,
    readonly details: Details,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

export interface JobStore<Info, Progress, Result, Details = never> {
  state: JobState<Info, Progress, Result, Details>;
  /**
   * Runs `work` as the job unless one is running or cancelling (then returns null at once). Resolves with the
   * result, or null when the job failed or was cancelled (the state says which, in words).
   */
  start(info: Info, progress: Progress, work: (job: JobContext<Progress>) => Promise<Result>): Promise<Result | null>;
  /** Asks the running job to stop: the state is "cancelling" at once, "cancelled" when the work has stopped. */
  cancel(): void;
  /** Forgets a finished job (back to idle); does nothing while one runs. */
  dismiss(): void;
}

export interface JobStoreOptions {
  /** The words of the AbortError the job's signal carries. */
  cancelMessage?: string;
  /** The clock (ms); `performance.now` by default. */
  now?: () => number;
}

/** True while a job runs or is being cancelled (a new one cannot start). */
export function isActive(state: JobState<unknown, unknown, unknown, unknown>): state is Extract<typeof state, { status: 'running' | 'cancelling' }> {
  return state.status === 'running' || state.status === 'cancelling';
}


/** A zustand store holding one job at a time. */
export function createJobStore<Info, Progress, Result, Details = never>(
  options: JobStoreOptions = {},
): UseBoundStore<StoreApi<JobStore<Info, Progress, Result, Details>>> {
  const now = options.now ?? (() => performance.now());
  const cancelMessage = options.cancelMessage ?? 'The job was cancelled';
  let controller: AbortController | null = null;

  return create<JobStore<Info, Progress, Result, Details>>((set, get) => ({
    state: { status: 'idle' },

    async start(info, initial, work) {
      if (isActive(get().state)) return null;
      const startedAt = now();
      const own = new AbortController();
      controller = own;
      let progress = initial;
      set({ state: { status: 'running', info, startedAt, progress } });
      const context: JobContext<Progress> = {
        signal: own.signal,
        progress(update) {
          const s = get().state;
          if (controller !== own || !isActive(s)) return;
          progress = typeof update === 'function' ? (update as (last: Progress) => Progress)(progress) : update;
          set({ state: { ...s, progress } });
        },
      };
      try {
        const result = await work(context);
        // A job that finished although cancel was asked for has finished: what it saved is there.
        set({ state: { status: 'done', info, startedAt, seconds: (now() - startedAt) / 1000, progress, result } });
        return result;
      } catch (error) {
        if (isAbortError(error) || (own.signal.aborted && !(error instanceof JobFailure))) {
          set({ state: { status: 'cancelled', info, startedAt, progress } });
        } else {
          const details = error instanceof JobFailure ? (error.details as Details) : undefined;
          set({ state: { status: 'failed', info, startedAt, progress, message: errorMessage(error), ...(details !== undefined ? { details } : {}) } });
        }
        return null;
      } finally {
        if (controller === own) controller = null;
      }
    },

    cancel() {
      const s = get().state;
      if (s.status !== 'running' || !controller) return;
      set({ state: { ...s, status: 'cancelling' } });
      controller.abort(abortError(cancelMessage));
    },

    dismiss() {
      if (!isActive(get().state)) set({ state: { status: 'idle' } });
    },
  }));
}
