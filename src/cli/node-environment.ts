// What the CLI records on the runs it writes: Node, the installed transformers.js / onnxruntime-node, and the
// SHA-256 of the model folder's files (hashed once per folder and process).
import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { HostEnvironment, ModelFileHash } from '../core/index.ts';

const require = createRequire(import.meta.url);

function installedVersion(pkg: string): string {
  try {
    const entry = require.resolve(pkg);
    // walk up from the entry point to the package's own package.json (exports maps hide it from require)
    for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      try {
        const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (json.name === pkg && json.version) return json.version;
      } catch {
        // no package.json here
      }
    }
  } catch {
    // not installed
  }
  return 'unknown';
}

let host: HostEnvironment | null = null;

/** Node and the inference packages installed beside the CLI. */
export function nodeHostEnvironment(): HostEnvironment {
  host ??= {
    transformersJs: installedVersion('@huggingface/transformers'),
    onnxRuntime: { package: 'onnxruntime-node', version: installedVersion('onnxruntime-node') },
    host: { kind: 'node', version: process.version, platform: `${process.platform} ${process.arch}` },
  };
  return host;
}

/** ONNX file suffix per dtype, as transformers.js names the variants in `onnx/`. */
const DTYPE_SUFFIX: Record<string, string> = { fp32: '', fp16: '_fp16', int8: '_int8', uint8: '_uint8', q8: '_quantized', q4: '_q4', q4f16: '_q4f16', bnb4: '_bnb4' };

const folderHashes = new Map<string, Promise<ModelFileHash[]>>();

/**
 * SHA-256 of the files of a model folder that a load with `dtype` reads: every file outside `onnx/`, and in `onnx/`
 * only the weights of that dtype (`model<suffix>.onnx` and its external data). Hidden files are skipped.
 */
export function hashModelFolder(folder: string, dtype = 'fp32'): Promise<ModelFileHash[]> {
  const key = `${path.resolve(folder)}\n${dtype}`;
  let pending = folderHashes.get(key);
  if (!pending) {
    pending = hashFiles(path.resolve(folder), dtype);
    folderHashes.set(key, pending);
  }
  return pending;
}

async function hashFiles(folder: string, dtype: string): Promise<ModelFileHash[]> {
  const weights = `model${DTYPE_SUFFIX[dtype] ?? ''}.onnx`;
  const files = (readdirSync(folder, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(folder, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((rel) => !rel.split('/').some((part) => part.startsWith('.')))
    .filter((rel) => !rel.startsWith('onnx/') || rel === `onnx/${weights}` || rel.startsWith(`onnx/${weights}_data`))
    .sort();
  const hashes: ModelFileHash[] = [];
  for (const rel of files) {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of createReadStream(path.join(folder, rel))) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    hashes.push({ path: rel, sha256: hash.digest('hex'), bytes });
  }
  return hashes;
}
