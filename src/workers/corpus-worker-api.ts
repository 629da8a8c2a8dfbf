import type { CorpusRecord, IngestSummary, LoadCorpusOptions, LoadProgress } from '../core/index.ts';

/** A picked or dropped file with its path inside the picked folder. */
export interface PickedFile {
  file: File;
  path: string;
}

/**
 * A finished load, one in which no document survived (`corpus` null; `summary` holds the issues), or one refused
 * because the same documents are stored already (`duplicateOf`, with `refuseDuplicates`).
 */
export type LoadedCorpusInfo =
  | { corpus: CorpusRecord; summary: IngestSummary }
  | { corpus: null; summary: IngestSummary; message: string }
  | { corpus: null; duplicateOf: CorpusRecord; message: string };

/** What the corpus worker offers the UI (through comlink). */
export interface CorpusWorkerApi {
  /** The core's loadCorpus into IndexedDB; `abortPort` (see abort-bridge.ts) cancels it, leaving nothing behind. */
  load(files: PickedFile[], options: LoadCorpusOptions, onProgress: (p: LoadProgress) => void, abortPort?: MessagePort): Promise<LoadedCorpusInfo>;
}
