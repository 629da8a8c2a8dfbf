import type { CorpusRecord, IngestSummary, LoadCorpusOptions, LoadProgress } from '../core/index.ts';

/** A picked or dropped file with its path inside the picked folder. */
export interface PickedFile {
  file: File;
  path: string;
}

export interface LoadedCorpusInfo {
  corpus: CorpusRecord;
  summary: IngestSummary;
}

/** What the corpus worker offers the UI (through comlink). */
export interface CorpusWorkerApi {
  /** The core's loadCorpus into IndexedDB; `abortPort` (see abort-bridge.ts) cancels it, leaving nothing behind. */
  load(files: PickedFile[], options: LoadCorpusOptions, onProgress: (p: LoadProgress) => void, abortPort?: MessagePort): Promise<LoadedCorpusInfo>;
}
