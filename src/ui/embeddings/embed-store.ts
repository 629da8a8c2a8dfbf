import * as Comlink from 'comlink';
import { create } from 'zustand';
import {
  abortError,
  presetForModel,
  type EmbedCorpusProgress,
  type EmbeddingDtype,
  type EmbeddingModelSource,
  type EmbeddingSetRecord,
} from '../../core/index.ts';
import { withAbortPort } from '../../workers/abort-bridge.ts';
import type { EmbedEvent, EmbedRequest, ModelSettings } from '../../workers/embed-worker-api.ts';
import { errorMessage } from '../shared/format.ts';
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

/** The state of the embedding job, shown by the status panel. */
export type EmbedJobState =
  | { status: 'idle' }
  | { status: 'loading'; corpusId: string; modelId: string; startedAt: number; files: Record<string, FileProgress> }
  | {
      status: 'running';
      corpusId: string;
      modelId: string;
      startedAt: number;
      files: Record<string, FileProgress>;
      set: EmbeddingSetRecord;
      resumedAt: number;
      device: string;
      progress: EmbedCorpusProgress | null;
    }
  | { status: 'done'; corpusId: string; set: EmbeddingSetRecord; resumedAt: number; device: string; seconds: number }
  | { status: 'cancelled'; corpusId: string; modelId: string }
  | { status: 'failed'; corpusId: string; modelId: string; message: string };

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
}

/** The offline default: the bundled tiny-bert, served by the app itself. */
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
};

/** A choice with the pooling and prefixes of the model's preset, when it has one. */
export function withPresetDefaults(choice: ModelChoice, modelId: string): ModelChoice {
  const preset = presetForModel(modelId);
  return preset
    ? { ...choice, modelId, pooling: preset.pooling, queryPrefix: preset.prefixes.query, passagePrefix: preset.prefixes.passage }
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

interface EmbedStore {
  choice: ModelChoice;
  state: EmbedJobState;
  setChoice(change: Partial<ModelChoice>): void;
  /** Embeds a corpus with the chosen model (or resumes its set for that model). */
  start(corpusId: string): Promise<void>;
  /** Continues a stored, incomplete set with the model it was made with. */
  resume(set: EmbeddingSetRecord): Promise<void>;
  cancel(): void;
  dismiss(): void;
}

export const useEmbedStore = create<EmbedStore>((set, get) => {
  let controller: AbortController | null = null;
  const run = async (request: EmbedRequest) => {
    if (get().state.status === 'loading' || get().state.status === 'running') return;
    const job = new AbortController();
    controller = job;
    const { corpusId } = request;
    const modelId = request.model.source.modelId;
    const startedAt = performance.now();
    set({ state: { status: 'loading', corpusId, modelId, startedAt, files: {} } });
    void requestPersistence();
    const onEvent = (event: EmbedEvent) =>
      set((s) => {
        const state = s.state;
        if (state.status !== 'loading' && state.status !== 'running') return s;
        switch (event.kind) {
          case 'load': {
            const { file, status, loaded, total } = event.progress;
            if (!file) return s;
            const before = state.files[file] ?? { loaded: 0, total: 0, done: false };
            const next: FileProgress =
              status === 'progress'
                ? { loaded: loaded ?? before.loaded, total: total ?? before.total, done: before.done }
                : status === 'done'
                  ? { ...before, loaded: Math.max(before.loaded, before.total), done: true }
                  : before;
            return { state: { ...state, files: { ...state.files, [file]: next } } };
          }
          case 'start':
            return { state: { ...state, status: 'running', set: event.set, resumedAt: event.resumedAt, device: event.device, progress: null } };
          case 'progress':
            return state.status === 'running' ? { state: { ...state, progress: event.progress } } : s;
        }
      });
    try {
      const stored = await withAbortPort(job.signal, (port) =>
        getEmbedWorker().embed(request, Comlink.proxy(onEvent), port && Comlink.transfer(port, [port])),
      );
      const s = get().state;
      set({
        state: {
          status: 'done',
          corpusId,
          set: stored,
          resumedAt: s.status === 'running' ? s.resumedAt : stored.rowsDone,
          device: s.status === 'running' ? s.device : stored.device,
          seconds: (performance.now() - startedAt) / 1000,
        },
      });
    } catch (error) {
      const aborted = (error as Error)?.name === 'AbortError';
      set({ state: aborted ? { status: 'cancelled', corpusId, modelId } : { status: 'failed', corpusId, modelId, message: errorMessage(error) } });
    } finally {
      if (controller === job) controller = null;
      void queryClient.invalidateQueries({ queryKey: embeddingSetsKey(corpusId) });
      void queryClient.invalidateQueries({ queryKey: storageKey });
    }
  };

  return {
    choice: DEFAULT_CHOICE,
    state: { status: 'idle' },
    setChoice(change) {
      set((s) => ({ choice: { ...s.choice, ...change } }));
    },
    start(corpusId) {
      const { choice } = get();
      return run({ corpusId, model: settingsOfChoice(choice), batchSize: choice.batchSize, tokens: choice.tokens });
    },
    resume(stored) {
      const { choice } = get();
      return run({ corpusId: stored.corpusId, model: settingsOfSet(stored), batchSize: choice.batchSize, tokens: stored.tokens });
    },
    cancel() {
      controller?.abort(abortError('Embedding was cancelled'));
    },
    dismiss() {
      const status = get().state.status;
      if (status !== 'loading' && status !== 'running') set({ state: { status: 'idle' } });
    },
  };
});
