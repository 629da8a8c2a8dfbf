import * as Comlink from 'comlink';
import { create } from 'zustand';
import {
  presetForModel,
  type EmbedCorpusProgress,
  type EmbeddingDtype,
  type EmbeddingModelSource,
  type EmbeddingSetRecord,
} from '../../core/index.ts';
import { withAbortPort } from '../services/abort-port.ts';
import type { EmbedEvent, EmbedRequest, ModelSettings } from '../../workers/embed-worker-api.ts';
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
}

/** What a finished job stored. */
export interface EmbedJobResult {
  set: EmbeddingSetRecord;
  resumedAt: number;
  device: string;
}

/** The state of the embedding job, shown by the status panel. */
export type EmbedJobState = JobState<EmbedJobInfo, EmbedJobProgress, EmbedJobResult>;

export const NO_EMBED_PROGRESS: EmbedJobProgress = { files: {}, started: null, progress: null };

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
    case 'start':
      return { ...state, started: { set: event.set, resumedAt: event.resumedAt, device: event.device }, progress: null };
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

interface EmbedChoiceStore {
  choice: ModelChoice;
  setChoice(change: Partial<ModelChoice>): void;
}

/** The model and options chosen on the Embeddings page (kept while switching pages). */
export const useEmbedChoice = create<EmbedChoiceStore>((set) => ({
  choice: DEFAULT_CHOICE,
  setChoice(change) {
    set((s) => ({ choice: { ...s.choice, ...change } }));
  },
}));

/** The embedding job of this page (one at a time). */
export const useEmbedJob = createJobStore<EmbedJobInfo, EmbedJobProgress, EmbedJobResult>({ cancelMessage: 'Embedding was cancelled' });

async function embed(request: EmbedRequest): Promise<void> {
  const { corpusId } = request;
  const info = { corpusId, modelId: request.model.source.modelId };
  await useEmbedJob.getState().start(info, NO_EMBED_PROGRESS, async ({ signal, progress }) => {
    void requestPersistence();
    // Cancelled through the abort bridge; what the worker embedded stays stored and resumable.
    let last = NO_EMBED_PROGRESS;
    try {
      const stored = await withAbortPort(signal, (port) =>
        getEmbedWorker().embed(
          request,
          Comlink.proxy((event: EmbedEvent) => progress((p) => (last = applyEmbedEvent(p, event)))),
          port && Comlink.transfer(port, [port]),
        ),
      );
      return { set: stored, resumedAt: last.started?.resumedAt ?? stored.rowsDone, device: last.started?.device ?? stored.device };
    } finally {
      void queryClient.invalidateQueries({ queryKey: embeddingSetsKey(corpusId) });
      void queryClient.invalidateQueries({ queryKey: storageKey });
    }
  });
}

/** Embeds a corpus with the chosen model (or resumes its set for that model). */
export function startEmbedding(corpusId: string): Promise<void> {
  const { choice } = useEmbedChoice.getState();
  return embed({ corpusId, model: settingsOfChoice(choice), batchSize: choice.batchSize, tokens: choice.tokens });
}

/** Continues a stored, incomplete set with the model it was made with. */
export function resumeEmbedding(stored: EmbeddingSetRecord): Promise<void> {
  const { choice } = useEmbedChoice.getState();
  return embed({ corpusId: stored.corpusId, model: settingsOfSet(stored), batchSize: choice.batchSize, tokens: stored.tokens });
}
