import type { CorpusRecord, IngestSummary, LoadCorpusOptions, LoadProgress } from '../core/index.ts';

/** A picked or dropped file with its path inside the picked folder. */
export interface PickedFile {
  file: File;
  path: string;
}

/** A finished load, or one in which no document survived (`corpus` null; `summary` holds the issues). */
export type LoadedCorpusInfo = { corpus: CorpusRecord; summary: IngestSummary } | { corpus: null; summary: IngestSummary; message: string };

/** What the corpus worker offers the UI (through comlink). */
export interface CorpusWorkerApi {
  /** The core's loadCorpus into IndexedDB; `abortPort` (see abort-bridge.ts) cancels it, leaving nothing behind. */
  load(files: PickedFile[], options: LoadCorpusOptions, onProgress: (p: LoadProgress) => void, abortPort?: MessagePort): Promise<LoadedCorpusInfo>;
}
