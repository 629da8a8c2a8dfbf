// Model folders picked from disk, kept in this browser (Cache API) so they work offline and after a reload,
// and served to transformers.js through its `env.fetch` hook under a path of the app's own origin.
import type { PickedFile } from './corpus-worker-api.ts';

const CACHE_NAME = 'dsw-model-folders';

/** URL path under which picked model folders are served to transformers.js (`localModelPath`). */
export const MODEL_FOLDERS_PATH = `${import.meta.env.BASE_URL}local-models/`;

/** A model folder kept in this browser. */
export interface StoredModelFolder {
  /** Folder name; used as the model id. */
  name: string;
  /** Files inside the folder, relative paths. */
  files: string[];
  /** Total size in bytes. */
  bytes: number;
}

const REQUIRED = ['config.json', 'tokenizer.json'];

function folderUrl(name: string, file = ''): string {
  return new URL(`${MODEL_FOLDERS_PATH}${encodeURIComponent(name)}/${file}`, self.location.href).href;
}

/**
 * Keeps the files of one picked folder (`<name>/config.json`, `<name>/onnx/model.onnx`, …), replacing an earlier
 * folder of the same name. Throws with words when it is not a model folder or storage is full.
 */
export async function storeModelFolder(files: readonly PickedFile[]): Promise<StoredModelFolder> {
  if (typeof caches === 'undefined') throw new Error('This browser cannot keep model folders (no Cache Storage); serve the app over http://localhost or https.');
  const names = new Set(files.map((f) => f.path.split('/')[0]));
  if (files.length === 0 || names.size !== 1 || !files.every((f) => f.path.includes('/'))) {
    throw new Error('Choose one model folder (the folder that contains config.json, tokenizer.json and onnx/).');
  }
  const name = [...names][0]!;
  const inside = files.map((f) => ({ file: f.file, rel: f.path.slice(name.length + 1) })).filter((f) => !f.rel.split('/').some((p) => p.startsWith('.')));
  const missing = REQUIRED.filter((r) => !inside.some((f) => f.rel === r));
  if (missing.length > 0) throw new Error(`The folder "${name}" is not a transformers.js model: ${missing.join(' and ')} missing.`);
  if (!inside.some((f) => f.rel.startsWith('onnx/') && f.rel.endsWith('.onnx'))) {
    throw new Error(`The folder "${name}" has no ONNX weights (expected onnx/model.onnx or a variant such as onnx/model_quantized.onnx).`);
  }
  const cache = await caches.open(CACHE_NAME);
  await removeModelFolder(name);
  try {
    for (const { file, rel } of inside) {
      await cache.put(folderUrl(name, rel), new Response(file, { headers: { 'content-length': String(file.size), 'content-type': 'application/octet-stream' } }));
    }
  } catch (error) {
    await removeModelFolder(name);
    const quota = (error as { name?: string })?.name === 'QuotaExceededError';
    throw new Error(
      quota
        ? `There is not enough storage space to keep the model folder "${name}"; nothing of it was kept. Free space and try again.`
        : `Could not keep the model folder "${name}": ${(error as Error).message}`,
    );
  }
  return { name, files: inside.map((f) => f.rel).sort(), bytes: inside.reduce((sum, f) => sum + f.file.size, 0) };
}

/** Model folders kept in this browser. */
export async function listModelFolders(): Promise<StoredModelFolder[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(CACHE_NAME);
  const folders = new Map<string, StoredModelFolder>();
  const base = folderUrl('');
  for (const request of await cache.keys()) {
    if (!request.url.startsWith(base.slice(0, -1))) continue;
    const [encoded, ...rest] = request.url.slice(base.length - 1).split('/');
    const name = decodeURIComponent(encoded!);
    const folder = folders.get(name) ?? { name, files: [], bytes: 0 };
    folder.files.push(rest.join('/'));
    folder.bytes += Number((await cache.match(request))?.headers.get('content-length') ?? 0);
    folders.set(name, folder);
  }
  return [...folders.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Forgets a kept model folder. */
export async function removeModelFolder(name: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(CACHE_NAME);
  const prefix = folderUrl(name);
  for (const request of await cache.keys()) if (request.url.startsWith(prefix)) await cache.delete(request);
}

/** A `fetch` that answers requests under {@link MODEL_FOLDERS_PATH} from the kept folders (404 when absent). */
export async function modelFolderFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(String(input), self.location.href);
  if (url.origin === self.location.origin && url.pathname.startsWith(MODEL_FOLDERS_PATH) && typeof caches !== 'undefined') {
    const cache = await caches.open(CACHE_NAME);
    const hit = await cache.match(url.href);
    return hit ?? new Response('This model file is not in the kept folder.', { status: 404, statusText: 'Not Found' });
  }
  return fetch(input, init);
}
