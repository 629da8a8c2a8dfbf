// Embeds stored corpora with transformers.js, off the UI thread: pages documents from IndexedDB, writes vector
// chunks as they fill, resumes a set after its last stored chunk; cancelled through an abort port.
import {
  abortError,
  embedCorpus,
  embeddingModelKey,
  measureEmbeddingSpeed,
  secondsToEmbed,
  throwIfAborted,
  type EmbeddingSetRecord,
  type ModelLoadProgress,
} from '../core/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import { loadBrowserEmbedder, settingsKey, type LoadedEmbedder } from './browser-embedder.ts';
import type { EmbedEvent, EmbedRequest, EmbedWorkerApi, ModelSettings } from './embed-worker-api.ts';
import { exposeInWorker } from './expose.ts';
import { listModelFolders, removeModelFolder, storeModelFolder } from './model-files.ts';
import { idbWorkerStores, type WorkerStores } from './worker-stores.ts';

/** Documents timed for the estimate (at most one batch). */
const SPEED_SAMPLE = 16;

/** Loads a model (the browser's transformers.js in the worker; a test passes its own). */
export type ModelLoader = (settings: ModelSettings, options: { onLoadProgress: (progress: ModelLoadProgress) => void }) => Promise<LoadedEmbedder>;

/** The embed worker's API over `stores`. */
export function createEmbedWorkerApi(stores: Pick<WorkerStores, 'corpora' | 'vectors'>, loadModel: ModelLoader = loadBrowserEmbedder): EmbedWorkerApi {
  // The last model, kept loaded so that resuming or embedding another corpus does not load it again.
  let loaded: { key: string; model: Promise<LoadedEmbedder> } | null = null;

  function model(request: EmbedRequest, onEvent: (event: EmbedEvent) => void): Promise<LoadedEmbedder> {
    const key = settingsKey(request.model);
    if (loaded?.key !== key) {
      const previous = loaded?.model;
      const next = loadModel(request.model, { onLoadProgress: (progress) => onEvent({ kind: 'load', progress }) });
      loaded = { key, model: next };
      next.catch(() => loaded?.model === next && (loaded = null));
      void previous?.then(({ embedder }) => embedder.dispose()).catch(() => {});
    }
    return loaded!.model;
  }

  return {
    async embed(request, onEvent, abortPort, confirm): Promise<EmbeddingSetRecord> {
      const signal = signalOfPort(abortPort);
      const run = async () => {
        const remote = (await (await stores.corpora()).getCorpus(request.corpusId))?.remote;
        if (remote) throw new Error(`This corpus is served by ${remote.server}: its vectors are made there (dsw serve --model <folder>), not in this browser.`);
        const { embedder, device } = await model(request, onEvent);
        throwIfAborted(signal);
        if (request.askAboveSeconds !== undefined) {
          const corpus = (await (await stores.corpora()).getCorpus(request.corpusId))!;
          const stored = await (await stores.vectors()).getSet(request.corpusId, embeddingModelKey(embedder.info));
          const remaining = corpus.documentCount - (stored?.rowsDone ?? 0);
          const sample = Math.min(request.batchSize, SPEED_SAMPLE);
          if (!stored?.complete && remaining > 2 * sample) {
            onEvent({ kind: 'measuring', sample });
            const speed = await measureEmbeddingSpeed(embedder, await stores.corpora(), request.corpusId, { sample, signal });
            const secondsLeft = secondsToEmbed(remaining, speed.docsPerSecond);
            const asking = secondsLeft > request.askAboveSeconds;
            const estimate = { sampled: speed.documents, docsPerSecond: speed.docsPerSecond, remaining, secondsLeft, asking };
            onEvent({ kind: 'estimate', estimate });
            if (asking && !(await (confirm?.(estimate) ?? Promise.resolve(true)))) throw abortError('Embedding was not started');
            throwIfAborted(signal);
          }
        }
        return embedCorpus(embedder, await stores.corpora(), await stores.vectors(), {
          corpusId: request.corpusId,
          source: request.model.source,
          device,
          batchSize: request.batchSize,
          tokens: request.tokens,
          signal,
          onStart: (set, resumedAt) => onEvent({ kind: 'start', set, resumedAt, device }),
          onProgress: (progress) => onEvent({ kind: 'progress', progress }),
        });
      };
      if (!globalThis.navigator?.locks) return run();
      // One writer per corpus, across tabs.
      return navigator.locks.request(`dsw-embed:${request.corpusId}`, { ifAvailable: true }, async (lock) => {
        if (!lock) throw new Error('This corpus is being embedded in another tab; wait for it to finish there.');
        return run();
      });
    },

    storeModelFolder,
    listModelFolders,
    removeModelFolder,
  };
}

exposeInWorker(createEmbedWorkerApi(idbWorkerStores()));
