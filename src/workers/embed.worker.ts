// Embeds stored corpora with transformers.js, off the UI thread: pages documents from IndexedDB, writes vector
// chunks as they fill, resumes a set after its last stored chunk; cancelled through an abort port.
import {
  abortError,
  alignToCorpus,
  cosine,
  embedThroughServer,
  readVectorFiles,
  serverEmbeddingModel,
  WorkbenchServerClient,
  sampleRows,
  storeImportedVectors,
  VectorImportError,
  type CorpusDocument,
  embedCorpus,
  embeddingModelKey,
  measureEmbeddingSpeed,
  secondsToEmbed,
  throwIfAborted,
  describeEmbeddingModel,
  documentText,
  type EmbeddingSetRecord,
  type ModelLoadProgress,
} from '../core/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import { loadBrowserEmbedder, settingsKey, type LoadedEmbedder } from './browser-embedder.ts';
import type { EmbedEvent, EmbedRequest, EmbedWorkerApi, ModelSettings, VectorImportReport } from './embed-worker-api.ts';
import { exposeInWorker } from './expose.ts';
import { listModelFolders, removeModelFolder, storeModelFolder } from './model-files.ts';
import { idbWorkerStores, type WorkerStores } from './worker-stores.ts';

/** Documents re-embedded to check imported vectors, and the cosine each must reach. */
const IMPORT_CHECK_SAMPLE = 8;
const IMPORT_MIN_COSINE = 0.999;

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

  /** The corpus's documents in stored order (the order a set's rows take). */
  async function corpusDocuments(corpusId: string, signal: AbortSignal | undefined): Promise<CorpusDocument[]> {
    const corpora = await stores.corpora();
    const corpus = await corpora.getCorpus(corpusId);
    if (!corpus || corpus.status !== 'ready') throw new Error(`Corpus ${corpusId} is not stored (it may have been deleted).`);
    if (corpus.remote) throw new Error(`This corpus is served by ${corpus.remote.server}: its vectors live there.`);
    const docs: CorpusDocument[] = [];
    for (let after: string | undefined; ; ) {
      const page = await corpora.listDocuments(corpusId, { after, limit: 4096 });
      if (page.length === 0) break;
      docs.push(...page);
      after = page[page.length - 1]!.id;
      throwIfAborted(signal);
    }
    return docs;
  }

  /** Re-embeds the sample rows here; each vector made elsewhere must be at cosine ≥ IMPORT_MIN_COSINE to its own. */
  async function checkSample(
    embedder: LoadedEmbedder['embedder'],
    docs: readonly CorpusDocument[],
    sample: readonly number[],
    vectorOf: (row: number, i: number) => Float32Array,
    source: string,
  ): Promise<VectorImportReport['checked']> {
    const dims = embedder.info.dimensions;
    const fresh = await embedder.embedTexts(sample.map((r) => documentText(docs[r]!)), 'passage');
    let worst = { cosine: 1, id: '' };
    sample.forEach((r, i) => {
      const c = cosine(vectorOf(r, i), fresh.subarray(i * dims, (i + 1) * dims));
      if (!(c >= worst.cosine)) worst = { cosine: c, id: docs[r]!.id };
    });
    if (!(worst.cosine >= IMPORT_MIN_COSINE)) {
      throw new VectorImportError(
        `${source}: the vector of ${worst.id} has cosine ${worst.cosine.toFixed(4)} to ${describeEmbeddingModel(embedder.info)} embedding it here (needs ≥ ${IMPORT_MIN_COSINE}, ${sample.length} documents checked). ` +
          'Were they made with another model, weights (dtype), pooling, prefix or token limit? Nothing was stored.',
      );
    }
    return { documents: sample.length, worstCosine: worst.cosine };
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

    async importVectors(request, onEvent, abortPort) {
      const signal = signalOfPort(abortPort);
      const docs = await corpusDocuments(request.corpusId, signal);
      const files = await Promise.all(request.files.map(async ({ file, path }) => ({ path, bytes: new Uint8Array(await file.arrayBuffer()) })));
      const imported = readVectorFiles(files);
      const ids = docs.map((d) => d.id);
      const { embedder, device } = await model({ corpusId: request.corpusId, model: request.model, batchSize: 8, tokens: false }, onEvent);
      throwIfAborted(signal);
      const info = embedder.info;
      if (imported.dims !== info.dimensions) {
        throw new VectorImportError(`${imported.source}: vectors of ${imported.dims} dimensions, but ${info.modelId} makes ${info.dimensions}; choose the model that made them.`);
      }
      const { rows, issues } = alignToCorpus(imported, ids);
      const sample = sampleRows(docs.length, IMPORT_CHECK_SAMPLE);
      const checked = await checkSample(embedder, docs, sample, (r) => rows.subarray(r * info.dimensions, (r + 1) * info.dimensions), imported.source);
      throwIfAborted(signal);
      const set = await storeImportedVectors(await stores.vectors(), {
        corpusId: request.corpusId,
        model: info,
        source: request.model.source,
        maxTokens: embedder.maxTokens,
        device: `imported (${imported.source}), checked on ${device}`,
        ...(embedder.modelFiles ? { modelFiles: embedder.modelFiles } : {}),
        corpusIds: ids,
        rows,
      });
      return { set, source: imported.source, issues, checked };
    },

    async importFromServer(request, onEvent, abortPort) {
      const signal = signalOfPort(abortPort);
      const client = new WorkbenchServerClient({ server: request.server, token: request.token });
      const source = `dsw serve at ${client.server}`;
      const served = await serverEmbeddingModel(client, signal);
      const docs = await corpusDocuments(request.corpusId, signal);
      if (docs.length === 0) throw new Error('This corpus has no documents to embed.');
      const ids = docs.map((d) => d.id);
      const { embedder, device } = await model({ corpusId: request.corpusId, model: request.model, batchSize: 8, tokens: false }, onEvent);
      throwIfAborted(signal);
      const info = embedder.info;
      const dims = info.dimensions;
      if (served.model.dimensions !== dims) {
        throw new VectorImportError(`${source} embeds with ${describeEmbeddingModel(served.model)}: ${served.model.dimensions} dimensions, but ${info.modelId} makes ${dims}; choose the model the server runs.`);
      }
      // The sample first: a server running other weights or settings is found before the whole corpus is sent.
      const sample = sampleRows(docs.length, IMPORT_CHECK_SAMPLE);
      const first = await embedThroughServer(client, served.servedCorpusId, sample.map((r) => documentText(docs[r]!)), { signal });
      const checked = await checkSample(embedder, docs, sample, (_, i) => first.values.subarray(i * dims, (i + 1) * dims), `${source} (${describeEmbeddingModel(first.model)})`);
      const values = new Float32Array(docs.length * dims);
      sample.forEach((r, i) => values.set(first.values.subarray(i * dims, (i + 1) * dims), r * dims));
      const inSample = new Set(sample);
      const rest = docs.map((_, r) => r).filter((r) => !inSample.has(r));
      const started = performance.now();
      const all =
        rest.length === 0
          ? null
          : await embedThroughServer(client, served.servedCorpusId, rest.map((r) => documentText(docs[r]!)), {
              batchSize: request.batchSize,
              signal,
              onProgress: (p) => onEvent({ kind: 'progress', progress: { ...p, done: p.done + sample.length, total: docs.length, elapsedMs: performance.now() - started } }),
            });
      if (all) rest.forEach((r, i) => values.set(all.values.subarray(i * dims, (i + 1) * dims), r * dims));
      throwIfAborted(signal);
      const { rows } = alignToCorpus({ source, ids, values, rows: docs.length, dims, issues: [] }, ids);
      const set = await storeImportedVectors(await stores.vectors(), {
        corpusId: request.corpusId,
        model: info,
        source: request.model.source,
        maxTokens: embedder.maxTokens,
        device: `${source} (${served.model.modelId}), checked on ${device}`,
        ...(embedder.modelFiles ? { modelFiles: embedder.modelFiles } : {}),
        corpusIds: ids,
        rows,
      });
      return { set, source, issues: [], checked };
    },

    storeModelFolder,
    listModelFolders,
    removeModelFolder,
  };
}

exposeInWorker(createEmbedWorkerApi(idbWorkerStores()));
