// Hybrid Deep Searcher and baselines over stored corpora: single questions with live events, resumable batches.
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import type { ProviderHost, TextGenerationDevice, TransformersModule } from '../core/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import { CorpusResourceCache } from './corpus-resources.ts';
import { forgetRemote, resourcesOf } from './corpus-sources.ts';
import { browserEnvironmentSource } from './browser-environment.ts';
import { exposeInWorker, inWorker } from './expose.ts';
import { HdsJobs } from './hds-jobs.ts';
import { vectorShareSlot } from './vector-share-port.ts';
import { inBrowserModelSource } from './in-browser-llm-source.ts';
import type { HdsWorkerApi } from './hds-worker-api.ts';
import { idbWorkerStores, once, type WorkerStores } from './worker-stores.ts';

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

type HdsHost = { transformers: () => Promise<TransformersModule>; autoDevice: TextGenerationDevice; inBrowserSource?: ProviderHost['inBrowserSource'] };

/** The HDS worker's API over `stores`; `host` loads transformers.js and says which device to use. */
export function createHdsWorkerApi(
  stores: Pick<WorkerStores, 'corpora' | 'vectors' | 'agentRuns'>,
  host: HdsHost,
): HdsWorkerApi {
  const slot = vectorShareSlot();
  // The stores open on first call.
  const jobs = once(async () => {
    const resources = new CorpusResourceCache(stores.corpora, 2, stores.vectors, slot.share);
    const corpora = await stores.corpora();
    return new HdsJobs({
      corpora,
      runs: await stores.agentRuns(),
      resources: (corpusId) => resourcesOf(corpusId, corpora, () => resources.get(corpusId)),
      forget: (corpusId) => {
        resources.forget(corpusId);
        forgetRemote(corpora, corpusId);
      },
      host,
      environment: async (corpusId) => browserEnvironmentSource(await stores.vectors(), corpusId),
      withLock: (name, work) => (globalThis.navigator?.locks ? navigator.locks.request(name, work) : work()),
    });
  });
  return {
    ...slot.target,
    runQuestion: async (request, onEvent, abortPort) => (await jobs()).runQuestion(request, onEvent, signalOfPort(abortPort)),
    runBatch: async (request, onEvent, abortPort) => (await jobs()).runBatch(request, onEvent, signalOfPort(abortPort)),
    resumeBatch: async (runId, provider, onEvent, abortPort) => (await jobs()).resumeBatch(runId, provider, onEvent, signalOfPort(abortPort)),
    testConnection: async (provider, onEvent) => (await jobs()).testConnection(provider, onEvent),
    forget: (corpusId) => void jobs().then((j) => j.forget(corpusId)),
  };
}

if (inWorker()) {
  const host: HdsHost = { transformers: loadTransformers, autoDevice: 'wasm', inBrowserSource: inBrowserModelSource(loadTransformers) };
  void webGpuDevice().then((device) => (host.autoDevice = device));
  exposeInWorker(createHdsWorkerApi(idbWorkerStores(), host));
}
