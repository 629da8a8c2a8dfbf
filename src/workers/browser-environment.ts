// What a browser host records on the runs it saves: the bundled transformers.js / ONNX Runtime and the user agent.
import type { HostEnvironment, ModelFileHash, RunEnvironmentSource } from '../core/index.ts';

declare const __DSW_INFERENCE_VERSIONS__: { transformersJs: string; onnxRuntimeWeb: string } | undefined;

/** This browser and the inference software bundled into this build (vite.config.ts `define`). */
export function browserHostEnvironment(): HostEnvironment {
  const versions = typeof __DSW_INFERENCE_VERSIONS__ === 'undefined' ? { transformersJs: 'unknown', onnxRuntimeWeb: 'unknown' } : __DSW_INFERENCE_VERSIONS__;
  return {
    transformersJs: versions.transformersJs,
    onnxRuntime: { package: 'onnxruntime-web', version: versions.onnxRuntimeWeb },
    host: { kind: 'browser', userAgent: navigator.userAgent },
  };
}

/** This browser and the file hashes saved with the corpus's embedding sets (by model key). */
export async function browserEnvironmentSource(
  vectors: { listSets(corpusId: string): Promise<{ modelKey: string; modelFiles?: ModelFileHash[] }[]> },
  corpusId: string,
): Promise<RunEnvironmentSource> {
  const modelFiles: Record<string, ModelFileHash[]> = {};
  for (const set of await vectors.listSets(corpusId)) if (set.modelFiles?.length) modelFiles[set.modelKey] = set.modelFiles;
  return { host: browserHostEnvironment(), modelFiles };
}
