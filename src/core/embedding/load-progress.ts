/** One model-loading event (transformers.js `progress_callback`, per file). */
export interface ModelLoadProgress {
  /** `initiate`/`download`/`progress`/`done` concern `file`; `total` aggregates all files; `ready` ends loading. */
  status: 'initiate' | 'download' | 'progress' | 'done' | 'total' | 'ready';
  /** File inside the model folder, e.g. `onnx/model.onnx`. */
  file?: string;
  /** Bytes loaded so far (`progress`, `total`). */
  loaded?: number;
  /** Bytes expected (`progress`, `total`). */
  total?: number;
  /** Percentage 0–100 (`progress`, `total`). */
  progress?: number;
}

/** Reads one transformers.js `progress_callback` event (whatever its exact shape) as a ModelLoadProgress. */
export function toLoadProgress(raw: unknown): ModelLoadProgress {
  const info = (raw ?? {}) as { status?: string; file?: string; loaded?: number; total?: number; progress?: number };
  switch (info.status) {
    case 'initiate':
    case 'download':
    case 'done':
      return { status: info.status, file: info.file };
    case 'progress':
      return { status: 'progress', file: info.file, loaded: info.loaded, total: info.total, progress: info.progress };
    case 'progress_total':
      return { status: 'total', loaded: info.loaded, total: info.total, progress: info.progress };
    default:
      return { status: 'ready' };
  }
}
