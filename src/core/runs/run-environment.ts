// What software and which model files produced a saved run: one shape for every host (browser, workers, CLI).
import { modelsOfPipeline } from './run-pipeline.ts';
import { WORKBENCH_VERSION } from './workbench-version.ts';
import type { PipelineSpec } from '../retrieval/index.ts';
import type { ModelFileHash } from '../embedding/index.ts';

/** The host a run was made on. */
export type RunHost = { kind: 'browser'; userAgent: string } | { kind: 'node'; version: string; platform: string };

/** The software and model files behind a saved run (reproducibility record). */
export interface RunEnvironment {
  /** The workbench's version (package.json). */
  workbench: string;
  /** transformers.js version. */
  transformersJs: string;
  /** ONNX Runtime package (`onnxruntime-web` in browsers, `onnxruntime-node` in Node). */
  onnxRuntime: { package: string; version: string };
  host: RunHost;
  /** Model key → the model folder's files with their SHA-256, for every model the pipeline uses (dense, GQR). */
  modelFiles?: Record<string, ModelFileHash[]>;
}

/** What a host knows about itself; the workbench version is added by {@link runEnvironment}. */
export interface HostEnvironment {
  transformersJs: string;
  onnxRuntime: { package: string; version: string };
  host: RunHost;
}

/** What a host knows for the runs it saves: itself, and the file hashes (by model key) of the models it loaded. */
export interface RunEnvironmentSource {
  host: HostEnvironment;
  modelFiles?: Readonly<Record<string, readonly ModelFileHash[] | undefined>>;
}

/** The environment of a run of `spec`: the host's software plus the hashes of the models `spec` uses. */
export function runEnvironment(
  host: HostEnvironment,
  spec?: PipelineSpec,
  modelFiles: Readonly<Record<string, readonly ModelFileHash[] | undefined>> = {},
): RunEnvironment {
  const environment: RunEnvironment = {
    workbench: WORKBENCH_VERSION,
    transformersJs: host.transformersJs,
    onnxRuntime: { ...host.onnxRuntime },
    host: { ...host.host },
  };
  const keys = spec ? Object.values(modelsOfPipeline(spec)) : [];
  const files: Record<string, ModelFileHash[]> = {};
  for (const key of keys) {
    const hashes = modelFiles[key];
    if (hashes && hashes.length > 0) files[key] = hashes.map((h) => ({ ...h })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  if (Object.keys(files).length > 0) environment.modelFiles = files;
  return environment;
}

/** `RunVersions.runtime` of an environment (the flat form older runs and the CLI have recorded). */
export function runtimeOfEnvironment(environment: RunEnvironment): Record<string, string> {
  const runtime: Record<string, string> = {
    'transformers.js': environment.transformersJs,
    [environment.onnxRuntime.package]: environment.onnxRuntime.version,
  };
  if (environment.host.kind === 'node') runtime.node = environment.host.version;
  else runtime.browser = environment.host.userAgent;
  return runtime;
}

/** A one-line description of the host (`Node v20.20.2 (linux x64)` or the browser's user agent). */
export function describeRunHost(host: RunHost): string {
  return host.kind === 'node' ? `Node ${host.version} (${host.platform})` : host.userAgent;
}

/** Lower-case hex SHA-256 of bytes (Web Crypto: the same in browsers, workers and Node). */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const digest = await crypto.subtle.digest('SHA-256', view as Uint8Array<ArrayBuffer>);
  return hexOf(new Uint8Array(digest));
}

function hexOf(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Reads a `RunEnvironment` from untrusted JSON (a run file, a recipe); throws with the field's path on a bad value.
 */
export function readRunEnvironment(value: unknown, where: string): RunEnvironment {
  const o = objectAt(value, where);
  const onnx = objectAt(o.onnxRuntime, `${where}.onnxRuntime`);
  const host = objectAt(o.host, `${where}.host`);
  let runHost: RunHost;
  if (host.kind === 'browser') runHost = { kind: 'browser', userAgent: stringAt(host.userAgent, `${where}.host.userAgent`) };
  else if (host.kind === 'node') runHost = { kind: 'node', version: stringAt(host.version, `${where}.host.version`), platform: stringAt(host.platform, `${where}.host.platform`) };
  else throw new Error(`${where}.host.kind must be "browser" or "node" (got ${JSON.stringify(host.kind)})`);
  const environment: RunEnvironment = {
    workbench: stringAt(o.workbench, `${where}.workbench`),
    transformersJs: stringAt(o.transformersJs, `${where}.transformersJs`),
    onnxRuntime: { package: stringAt(onnx.package, `${where}.onnxRuntime.package`), version: stringAt(onnx.version, `${where}.onnxRuntime.version`) },
    host: runHost,
  };
  if (o.modelFiles !== undefined) {
    const models = objectAt(o.modelFiles, `${where}.modelFiles`);
    environment.modelFiles = {};
    for (const [key, list] of Object.entries(models)) {
      if (!Array.isArray(list)) throw new Error(`${where}.modelFiles["${key}"] must be a list of files`);
      environment.modelFiles[key] = list.map((entry, i) => {
        const at = `${where}.modelFiles["${key}"][${i}]`;
        const f = objectAt(entry, at);
        const sha256 = stringAt(f.sha256, `${at}.sha256`);
        if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`${at}.sha256 must be 64 lower-case hex digits`);
        const bytes = f.bytes;
        if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) throw new Error(`${at}.bytes must be a non-negative integer`);
        return { path: stringAt(f.path, `${at}.path`), sha256, bytes };
      });
    }
  }
  return environment;
}

function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where} must be an object`);
  return value as Record<string, unknown>;
}

function stringAt(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`${where} must be a non-empty string`);
  return value;
}

/** The file hashes saved with the corpus's embedding sets of the models `spec` uses (sets without hashes are left out). */
export async function storedModelFiles(
  vectors: { getSet(corpusId: string, modelKey: string): Promise<{ modelFiles?: ModelFileHash[] } | undefined> },
  corpusId: string,
  spec: PipelineSpec,
): Promise<Record<string, ModelFileHash[]>> {
  const files: Record<string, ModelFileHash[]> = {};
  for (const key of Object.values(modelsOfPipeline(spec))) {
    const set = await vectors.getSet(corpusId, key);
    if (set?.modelFiles?.length) files[key] = set.modelFiles;
  }
  return files;
}
