import * as Comlink from 'comlink';
import { create } from 'zustand';
import {
  DTYPE_FILES,
  presetForModel,
  type EmbedCorpusProgress,
  type EmbeddingDtype,
  type EmbeddingModelSource,
  type EmbeddingSetRecord,
} from '../../core/index.ts';
import { withAbortPort } from '../services/abort-port.ts';
import type { EmbedEstimate, EmbedEvent, EmbedRequest, ModelSettings } from '../../workers/embed-worker-api.ts';
import { createJobStore, type JobState } from '../shared/job-store.ts';
import { embeddingSetsKey, storageKey } from '../services/query-keys.ts';
import { getEmbedWorker } from '../services/workers.ts';
import { queryClient } from '../services/query-client.ts';
import { requestPersistence } from '../services/stores.ts';

/** Download/read progress of one model file. */
export interface FileProgress {
  loaded: number;
  total: number;
  done: boolean;
}

/** Which job: the corpus and the model asked for. */
export interface EmbedJobInfo {
  corpusId: string;
  modelId: string;
}

/** How far an embedding job got: model files first, then (once the set is open) documents. */
export interface EmbedJobProgress {
  files: Record<string, FileProgress>;
  /** Set once the model is loaded and the set opened; null while the model loads. */
  started: { set: EmbeddingSetRecord; resumedAt: number; device: string } | null;
  progress: EmbedCorpusProgress | null;
  /** Documents being timed for the estimate (null when not measuring). */
  measuring: number | null;
  /** Docs/s on a first batch and the time left; `asking` while the job waits for the person. */
  estimate: EmbedEstimate | null;
}

/** What a finished job stored. */
export interface EmbedJobResult {
  set: EmbeddingSetRecord;
  resumedAt: number;
  device: string;
}

/** The state of the embedding job, shown by the status panel. */
export type EmbedJobState = JobState<EmbedJobInfo, EmbedJobProgress, EmbedJobResult>;

export const NO_EMBED_PROGRESS: EmbedJobProgress = { files: {}, started: null, progress: null, measuring: null, estimate: null };

/** The progress after one worker event. */
export function applyEmbedEvent(state: EmbedJobProgress, event: EmbedEvent): EmbedJobProgress {
  switch (event.kind) {
    case 'load': {
      const { file, status, loaded, total } = event.progress;
      if (!file) return state;
      const before = state.files[file] ?? { loaded: 0, total: 0, done: false };
      const next: FileProgress =
        status === 'progress'
          ? { loaded: loaded ?? before.loaded, total: total ?? before.total, done: before.done }
          : status === 'done'
            ? { ...before, loaded: Math.max(before.loaded, before.total), done: true }
            : before;
      return { ...state, files: { ...state.files, [file]: next } };
    }
    case 'measuring':
      return { ...state, measuring: event.sample };
    case 'estimate':
      return { ...state, measuring: null, estimate: event.estimate };
    case 'start':
      return {
        ...state,
        started: { set: event.set, resumedAt: event.resumedAt, device: event.device },
        progress: null,
        estimate: state.estimate && { ...state.estimate, asking: false },
      };
    case 'progress':
      return state.started ? { ...state, progress: event.progress } : state;
  }
}

/** The model and options chosen on the Embeddings page. */
export interface ModelChoice {
  /** Where the files come from. */
  location: 'app' | 'remote' | 'folder';
  /** Model id (a preset's, typed in, or the picked folder's name). */
  modelId: string;
  /** Model host for `remote`; empty = the Hugging Face Hub. */
  host: string;
  dtype: EmbeddingDtype;
  pooling: 'mean' | 'cls';
  queryPrefix: string;
  passagePrefix: string;
  batchSize: number;
  /** Also store token-level vectors. */
  tokens: boolean;
  /** Measure first, and ask before embedding when it would take longer than this many seconds. */
  askAboveSeconds: number;
}

/** Before the app's models are known: the generated tiny-bert; the best served model replaces it (preselectServed). */
export const DEFAULT_CHOICE: ModelChoice = {
  location: 'app',
  modelId: 'tiny-bert',
  host: '',
  dtype: 'fp32',
  pooling: 'mean',
  queryPrefix: '',
  passagePrefix: '',
  batchSize: 32,
  tokens: false,
  askAboveSeconds: 60,
};

/** A choice with the pooling, prefixes and default weights of the model's preset, when it has one. */
export function withPresetDefaults(choice: ModelChoice, modelId: string): ModelChoice {
  const preset = presetForModel(modelId);
  return preset
    ? {
        ...choice,
        modelId,
        pooling: preset.pooling,
        queryPrefix: preset.prefixes.query,
        passagePrefix: preset.prefixes.passage,
        // A kept folder may hold only the fp32 file: its weights stay as chosen.
        dtype: choice.location === 'folder' ? choice.dtype : (preset.defaultDtype ?? 'fp32'),
      }
    : { ...choice, modelId };
}

/** The worker settings of a choice. */
export function settingsOfChoice(choice: ModelChoice): ModelSettings {
  const source: EmbeddingModelSource = { location: choice.location, modelId: choice.modelId.trim() };
  if (choice.location === 'remote' && choice.host.trim()) source.host = choice.host.trim();
  return {
    source,
    dtype: choice.dtype,
    pooling: choice.pooling,
    prefixes: { query: choice.queryPrefix, passage: choice.passagePrefix },
  };
}

/** The worker settings that load the model a set was made with (to resume it). */
export function settingsOfSet(set: EmbeddingSetRecord): ModelSettings {
  return {
    source: set.source,
    dtype: set.model.dtype as EmbeddingDtype,
    pooling: set.model.pooling === 'cls' ? 'cls' : 'mean',
    prefixes: set.model.prefixes,
    maxTokens: set.maxTokens,
  };
}

// The weights a folder without the chosen dtype's file falls back to, in this order (fp16 is slow on wasm).
const FOLDER_DTYPES: readonly EmbeddingDtype[] = ['fp32', 'q8', 'fp16', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16'];

/**
 * `preferred` when the folder holds its weights file, else the first dtype whose file it holds (fp32, then q8, …),
 * else `preferred` (loading then says which file is missing).
 */
export function dtypeInFolder(files: readonly string[], preferred: EmbeddingDtype): EmbeddingDtype {
  const held = new Set(files);
  if (held.has(DTYPE_FILES[preferred])) return preferred;
  return FOLDER_DTYPES.find((dtype) => held.has(DTYPE_FILES[dtype])) ?? preferred;
}

interface EmbedChoiceStore {
  choice: ModelChoice;
  /** Whether the person changed the choice (then the served-model default no longer replaces it). */
  touched: boolean;
  setChoice(change: Partial<ModelChoice>): void;
  chooseModel(modelId: string): void;
  /** Picks a kept model folder, and weights it holds when it lacks the chosen dtype's file. */
  chooseFolder(name: string, files: readonly string[]): void;
  /** Picks `modelId` with `dtype` unless the person already chose. */
  preselect(modelId: string, dtype: EmbeddingDtype): void;
}

/** The model and options chosen on the Embeddings page (kept while switching pages). */
export const useEmbedChoice = create<EmbedChoiceStore>((set) => ({
  choice: DEFAULT_CHOICE,
  touched: false,
  setChoice(change) {
    set((s) => ({ choice: { ...s.choice, ...change }, touched: true }));
  },
  chooseModel(modelId) {
    set((s) => ({ choice: withPresetDefaults(s.choice, modelId), touched: true }));
  },
  chooseFolder(name, files) {
    set((s) => {
      const choice = withPresetDefaults(s.choice, name);
      return { choice: { ...choice, dtype: dtypeInFolder(files, choice.dtype) }, touched: true };
    });
  },
  preselect(modelId, dtype) {
    set((s) => (s.touched ? s : { choice: { ...withPresetDefaults(s.choice, modelId), location: 'app', dtype } }));
  },
}));

/** The embedding job of this page (one at a time). */
export const useEmbedJob = createJobStore<EmbedJobInfo, EmbedJobProgress, EmbedJobResult>({ cancelMessage: 'Embedding was cancelled' });

/** Answers the estimate the running job is asking about (true: embed everything). */
let answerEstimate: ((go: boolean) => void) | null = null;

/** Embeds after the estimate (`go`) or ends the job without embedding. */
export function answerEmbedEstimate(go: boolean): void {
  const answer = answerEstimate;
  answerEstimate = null;
  if (!go) useEmbedJob.getState().cancel();
  answer?.(go);
}

async function embed(request: EmbedRequest): Promise<void> {
  const { corpusId } = request;
  const info = { corpusId, modelId: request.model.source.modelId };
  await useEmbedJob.getState().start(info, NO_EMBED_PROGRESS, async ({ signal, progress }) => {
    void requestPersistence();
    // Cancelled through the abort bridge; what the worker embedded stays stored and resumable.
    let last = NO_EMBED_PROGRESS;
    const confirm = (_estimate: EmbedEstimate) =>
      new Promise<boolean>((resolve) => {
        answerEstimate = resolve;
        signal.addEventListener('abort', () => resolve(false), { once: true });
      });
    try {
      const stored = await withAbortPort(signal, (port) =>
        getEmbedWorker().embed(
          request,
          Comlink.proxy((event: EmbedEvent) => progress((p) => (last = applyEmbedEvent(p, event)))),
          port && Comlink.transfer(port, [port]),
          Comlink.proxy(confirm),
        ),
      );
      return { set: stored, resumedAt: last.started?.resumedAt ?? stored.rowsDone, device: last.started?.device ?? stored.device };
    } finally {
      answerEstimate = null;
      void queryClient.invalidateQueries({ queryKey: embeddingSetsKey(corpusId) });
      void queryClient.invalidateQueries({ queryKey: storageKey });
    }
  });
}

/** Embeds a corpus with the chosen model (or resumes its set for that model). */
export function startEmbedding(corpusId: string): Promise<void> {
  const { choice } = useEmbedChoice.getState();
  return embed({ corpusId, model: settingsOfChoice(choice), batchSize: choice.batchSize, tokens: choice.tokens, askAboveSeconds: choice.askAboveSeconds });
}

/** Continues a stored, incomplete set with the model it was made with (the person chose to: no estimate is asked). */
export function resumeEmbedding(stored: EmbeddingSetRecord): Promise<void> {
  const { choice } = useEmbedChoice.getState();
  return embed({ corpusId: stored.corpusId, model: settingsOfSet(stored), batchSize: choice.batchSize, tokens: stored.tokens });
}
