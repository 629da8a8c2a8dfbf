// Loads embedding models in a Web Worker with transformers.js, fully offline unless a remote host is chosen:
// ONNX Runtime's wasm files come from the app itself (never a CDN), bundled models from the app's /models/,
// picked folders from this browser's storage.
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import {
  describeModelSource,
  HUGGING_FACE_HOST,
  loadEmbedder,
  presetForModel,
  type Embedder,
  type EmbeddingDevice,
  type ModelLoadProgress,
} from '../core/index.ts';
import type { ModelSettings } from './embed-worker-api.ts';
import { ModelFileFetcher } from './model-file-fetcher.ts';
import { MODEL_FOLDERS_PATH, modelFolderFetch } from './model-files.ts';
import { hashingFetch, modelFileHashes } from './model-hashes.ts';

/** A loaded model and where it runs. */
export interface LoadedEmbedder {
  embedder: Embedder;
  device: EmbeddingDevice;
}

let gpuAdapter: Promise<boolean> | null = null;

/** Whether WebGPU is usable here (an adapter, not just `navigator.gpu`). */
function hasWebGpu(): Promise<boolean> {
  gpuAdapter ??= (async () => {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu) return false;
    try {
      return (await gpu.requestAdapter()) != null;
    } catch {
      return false;
    }
  })();
  return gpuAdapter;
}

/**
 * Loads a model as `settings` say, on WebGPU when the browser has an adapter (falling back to wasm if WebGPU
 * fails), else on wasm. Errors name the model and where it was looked for.
 */
export async function loadBrowserEmbedder(
  settings: ModelSettings,
  options: { preferGpu?: boolean; batchSize?: number; onLoadProgress?: (p: ModelLoadProgress) => void } = {},
): Promise<LoadedEmbedder> {
  const transformers = await import('@huggingface/transformers');
  const { env } = transformers;
  const wasm = env.backends.onnx.wasm!;
  wasm.wasmPaths = { wasm: ortWasmUrl, mjs: ortMjsUrl };
  wasm.numThreads = self.crossOriginIsolated ? Math.min(4, navigator.hardwareConcurrency || 1) : 1;
  const { source } = settings;
  const remote = source.location === 'remote';
  // Only downloads are worth caching; local files are read from where they already are.
  env.useBrowserCache = remote;
  env.allowLocalModels = !remote;
  if (remote) env.remoteHost = withSlash(source.host?.trim() || HUGGING_FACE_HOST);
  const localModelPath = source.location === 'folder' ? MODEL_FOLDERS_PATH : source.location === 'app' ? `${import.meta.env.BASE_URL}models/` : undefined;
  if (source.location === 'path') throw new Error('A model on a file-system path can only be used from the command line.');

  // Files of this app's origin are fetched by the app itself: once each, whole, retried (see model-file-fetcher.ts).
  const appModels = `${import.meta.env.BASE_URL}models/`;
  const modelFolder = localModelPath ? new URL(`${localModelPath}${source.modelId}/`, self.location.href).href : null;
  const files = new ModelFileFetcher({
    prefixes: [appModels, MODEL_FOLDERS_PATH].map((p) => new URL(p, self.location.href).href),
    // Every file that reaches transformers.js is hashed once (model-hashes.ts), for the run's record.
    next: hashingFetch(modelFolderFetch),
    onProgress: ({ url, loaded, total }) => {
      if (!modelFolder || !url.startsWith(modelFolder)) return;
      options.onLoadProgress?.({ status: 'progress', file: url.slice(modelFolder.length), loaded, total, progress: total > 0 ? (100 * loaded) / total : undefined });
    },
  });
  env.fetch = files.fetch;
  env.useCustomCache = !remote;
  env.customCache = remote ? null : files.cache;

  const preset = presetForModel(source.modelId);
  const load = async (device: EmbeddingDevice) => {
    const embedder = await loadEmbedder({
      transformers,
      modelId: source.modelId,
      localModelPath,
      allowRemoteModels: remote,
      device,
      dtype: settings.dtype,
      pooling: settings.pooling ?? preset?.pooling,
      prefixes: settings.prefixes ?? preset?.prefixes,
      maxTokens: settings.maxTokens ?? preset?.maxTokens,
      batchSize: options.batchSize,
      onLoadProgress: options.onLoadProgress,
    });
    const files = await modelFileHashes(source.modelId);
    if (files.length > 0) embedder.modelFiles = files;
    return embedder;
  };
  try {
    if ((options.preferGpu ?? true) && (await hasWebGpu())) {
      try {
        return { embedder: await load('webgpu'), device: 'webgpu' };
      } catch {
        // Some models or drivers fail on WebGPU; wasm always works.
      }
    }
    return { embedder: await load('wasm'), device: 'wasm' };
  } catch (error) {
    // transformers.js reports a file it could not read as missing; the fetcher knows what really happened.
    const why = files.failure ? ` ${files.failure}` : '';
    throw new Error(`${(error as Error).message}${why} (model source: ${describeModelSource(source)})`, { cause: error });
  } finally {
    files.release();
  }
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** Identity of settings, for caching loaded models. */
export function settingsKey(settings: ModelSettings): string {
  const { source, dtype, pooling, prefixes, maxTokens } = settings;
  return JSON.stringify([source.location, source.modelId, source.host ?? '', dtype, pooling ?? '', prefixes?.query ?? null, prefixes?.passage ?? null, maxTokens ?? 0]);
}
