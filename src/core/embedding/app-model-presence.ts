import type { EmbeddingDtype } from './model-info.ts';
import { findEmbeddingPreset } from './registry.ts';

/** The weights file transformers.js reads for each dtype, relative to the model folder. */
export const DTYPE_FILES: Readonly<Record<EmbeddingDtype, string>> = Object.freeze({
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
  int8: 'onnx/model_int8.onnx',
  uint8: 'onnx/model_uint8.onnx',
  q4: 'onnx/model_q4.onnx',
  bnb4: 'onnx/model_bnb4.onnx',
  q4f16: 'onnx/model_q4f16.onnx',
});

/** Whether a model's files are served by the app itself (its `models/` path, filled from `public/models/`). */
export interface AppModelPresence {
  modelId: string;
  present: boolean;
  /** Files of the model folder that the app does not serve (empty when present). */
  missingFiles: string[];
}

/** The files a model folder needs for one dtype. */
export function modelFilesFor(dtype: EmbeddingDtype): string[] {
  return ['config.json', 'tokenizer.json', DTYPE_FILES[dtype]];
}

/**
 * Asks the app's `models/` path (e.g. `/models/`) whether it serves `modelId` for `dtype`, with HEAD requests
 * (a missing file is a 404: the app serves no fallback page for them).
 */
export async function probeAppModel(
  modelsPath: string,
  modelId: string,
  dtype: EmbeddingDtype,
  fetchFile: (url: string, init: { method: 'HEAD' }) => Promise<{ ok: boolean }> = fetch,
): Promise<AppModelPresence> {
  const base = `${modelsPath.endsWith('/') ? modelsPath : `${modelsPath}/`}${modelId}/`;
  const answers = await Promise.all(
    modelFilesFor(dtype).map(async (file) => ({ file, ok: await fetchFile(base + file, { method: 'HEAD' }).then((r) => r.ok, () => false) })),
  );
  const missingFiles = answers.filter((a) => !a.ok).map((a) => a.file);
  return { modelId, present: missingFiles.length === 0, missingFiles };
}

/** The name of the list of served files under the app's `models/` path (answered by the app's server). */
export const SERVED_FILES_LIST = 'served-files.json';

/**
 * The files the app serves under `modelsPath` (paths relative to it), read from its list; undefined when the server
 * keeps no list (then {@link probeAppModel} asks per file).
 */
export async function readServedModelFiles(
  modelsPath: string,
  fetchFile: (url: string) => Promise<{ ok: boolean; json(): Promise<unknown> }> = fetch,
): Promise<ReadonlySet<string> | undefined> {
  const base = modelsPath.endsWith('/') ? modelsPath : `${modelsPath}/`;
  try {
    const response = await fetchFile(base + SERVED_FILES_LIST);
    if (!response.ok) return undefined;
    const body = (await response.json()) as { files?: unknown };
    return Array.isArray(body.files) ? new Set(body.files.filter((f): f is string => typeof f === 'string')) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `modelId` is served for `dtype`, from the list of served files. */
export function presenceInServedFiles(served: ReadonlySet<string>, modelId: string, dtype: EmbeddingDtype): AppModelPresence {
  const missingFiles = modelFilesFor(dtype).filter((file) => !served.has(`${modelId}/${file}`));
  return { modelId, present: missingFiles.length === 0, missingFiles };
}

/** Words that say how to get a model that is not in the app's (or the CLI's) models folder. */
export function howToGetModel(modelId: string): string {
  const setup = findEmbeddingPreset(modelId)?.localSetup;
  const local = setup
    ? `run \`${setup}\` in the workbench's folder (it writes public/models/${modelId}/ for offline use)`
    : `put its files (config.json, tokenizer.json, onnx/model.onnx) in public/models/${modelId}/`;
  return `To get "${modelId}": ${local}, choose a model folder from this computer, or download it from the Hugging Face Hub.`;
}
