// Hybrid Deep Searcher and baselines over stored corpora: single questions with live events, resumable batches.
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import * as Comlink from 'comlink';
import type { TextGenerationDevice, TransformersModule } from '../core/index.ts';
import { IdbAgentRunStore, IdbSettingsStore, IdbVectorStore, openWorkbenchDb } from '../storage/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import { CorpusResourceCache } from './corpus-resources.ts';
import { remoteAwareStore, resourcesOf } from './corpus-sources.ts';
import { HdsJobs } from './hds-jobs.ts';
import type { HdsWorkerApi } from './hds-worker-api.ts';

/** transformers.js with ONNX Runtime's wasm files served by the app (the default CDN is not reachable offline). */
async function loadTransformers(): Promise<TransformersModule> {
  const transformers = await import('@huggingface/transformers');
  const onnx = transformers.env.backends.onnx;
  if (onnx.wasm) {
    onnx.wasm.wasmPaths = { wasm: ortWasmUrl, mjs: ortMjsUrl };
    onnx.wasm.numThreads = self.crossOriginIsolated ? 2 : 1;
  }
  return transformers;
}

/** WebGPU when the browser offers an adapter (checked once, in the background), else wasm. */
async function webGpuDevice(): Promise<TextGenerationDevice> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  if (!gpu) return 'wasm';
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000));
  try {
    return (await Promise.race([gpu.requestAdapter(), timeout])) ? 'webgpu' : 'wasm';
  } catch {
    return 'wasm';
  }
}

const host: { transformers: () => Promise<TransformersModule>; autoDevice: TextGenerationDevice } = { transformers: loadTransformers, autoDevice: 'wasm' };
void webGpuDevice().then((device) => (host.autoDevice = device));

// Exposed at once (messages sent before `expose` would be lost); the stores open on first use.
const jobs = openWorkbenchDb().then((db) => {
  const corpora = remoteAwareStore(db);
  const resources = new CorpusResourceCache(Promise.resolve(corpora), 2, Promise.resolve(new IdbVectorStore(db)));
  const settings = new IdbSettingsStore(db);
  return new HdsJobs({
    corpora,
    runs: new IdbAgentRunStore(db, () => settings.secrets()),
    resources: (corpusId) => resourcesOf(corpusId, corpora, () => resources.get(corpusId)),
    forget: (corpusId) => {
      resources.forget(corpusId);
      corpora.forget(corpusId);
    },
    host,
    withLock: (name, work) => (navigator.locks ? navigator.locks.request(name, work) : work()),
  });
});

const api: HdsWorkerApi = {
  runQuestion: async (request, onEvent, abortPort) => (await jobs).runQuestion(request, onEvent, signalOfPort(abortPort)),
  runBatch: async (request, onEvent, abortPort) => (await jobs).runBatch(request, onEvent, signalOfPort(abortPort)),
  resumeBatch: async (runId, provider, onEvent, abortPort) => (await jobs).resumeBatch(runId, provider, onEvent, signalOfPort(abortPort)),
  testConnection: async (provider, onEvent) => (await jobs).testConnection(provider, onEvent),
  forget: (corpusId) => void jobs.then((j) => j.forget(corpusId)),
};

Comlink.expose(api);
