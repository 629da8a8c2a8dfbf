// Embeds stored corpora with transformers.js, off the UI thread: pages documents from IndexedDB, writes vector
// chunks as they fill, resumes a set after its last stored chunk, and can be cancelled.
import * as Comlink from 'comlink';
import { embedCorpus, type EmbeddingSetRecord } from '../core/index.ts';
import { IdbCorpusStore, IdbVectorStore, openWorkbenchDb } from '../storage/index.ts';
import { loadBrowserEmbedder, settingsKey, type LoadedEmbedder } from './browser-embedder.ts';
import type { EmbedEvent, EmbedRequest, EmbedWorkerApi } from './embed-worker-api.ts';
import { listModelFolders, removeModelFolder, storeModelFolder } from './model-files.ts';

const dbPromise = openWorkbenchDb();
let current: AbortController | null = null;
// The last model, kept loaded so that resuming or embedding another corpus does not load it again.
let loaded: { key: string; model: Promise<LoadedEmbedder> } | null = null;

function model(request: EmbedRequest, onEvent: (event: EmbedEvent) => void): Promise<LoadedEmbedder> {
  const key = settingsKey(request.model);
  if (loaded?.key !== key) {
    const previous = loaded?.model;
    const next = loadBrowserEmbedder(request.model, { onLoadProgress: (progress) => onEvent({ kind: 'load', progress }) });
    loaded = { key, model: next };
    next.catch(() => loaded?.model === next && (loaded = null));
    void previous?.then(({ embedder }) => embedder.dispose()).catch(() => {});
  }
  return loaded!.model;
}

const api: EmbedWorkerApi = {
  async embed(request, onEvent): Promise<EmbeddingSetRecord> {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    const run = async () => {
      const db = await dbPromise;
      const remote = (await new IdbCorpusStore(db).getCorpus(request.corpusId))?.remote;
      if (remote) throw new Error(`This corpus is served by ${remote.server}: its vectors are made there (dsw serve --model <folder>), not in this browser.`);
      const { embedder, device } = await model(request, onEvent);
      controller.signal.throwIfAborted();
      return embedCorpus(embedder, new IdbCorpusStore(db), new IdbVectorStore(db), {
        corpusId: request.corpusId,
        source: request.model.source,
        device,
        batchSize: request.batchSize,
        tokens: request.tokens,
        signal: controller.signal,
        onStart: (set, resumedAt) => onEvent({ kind: 'start', set, resumedAt, device }),
        onProgress: (progress) => onEvent({ kind: 'progress', progress }),
      });
    };
    try {
      if (!navigator.locks) return await run();
      // One writer per corpus, across tabs.
      return await navigator.locks.request(`dsw-embed:${request.corpusId}`, { ifAvailable: true }, async (lock) => {
        if (!lock) throw new Error('This corpus is being embedded in another tab; wait for it to finish there.');
        return run();
      });
    } finally {
      if (current === controller) current = null;
    }
  },

  cancel() {
    current?.abort(new DOMException('Embedding was cancelled', 'AbortError'));
  },

  storeModelFolder,
  listModelFolders,
  removeModelFolder,
};

Comlink.expose(api);
