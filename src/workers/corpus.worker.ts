// Loads corpora: parses dropped files, writes them to IndexedDB and builds the BM25 index, off the UI thread.
import { CorpusLoadError, DuplicateCorpusError, loadCorpus, newCorpusId, storageFullAdvice, StorageFullError, type FileSource, type LoadCorpusOptions, type LoadProgress } from '../core/index.ts';
import { ingestLockName } from '../storage/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import type { CorpusWorkerApi, LoadedCorpusInfo, PickedFile } from './corpus-worker-api.ts';
import { exposeInWorker } from './expose.ts';
import { idbWorkerStores, type WorkerStores } from './worker-stores.ts';

function toSource({ file, path }: PickedFile): FileSource {
  return { name: file.name, path, size: file.size, stream: () => file.stream() };
}

/** The corpus worker's API over `stores`. */
export function createCorpusWorkerApi(stores: WorkerStores): CorpusWorkerApi {
  return {
    async load(files: PickedFile[], options: LoadCorpusOptions, onProgress: (p: LoadProgress) => void, abortPort?: MessagePort): Promise<LoadedCorpusInfo> {
      const store = await stores.corpora();
      const id = options.id ?? newCorpusId();
      try {
        const run = () => loadCorpus(files.map(toSource), { ...options, id }, store, onProgress, signalOfPort(abortPort));
        // The lock tells other tabs that this half-written corpus is alive (see removeIncompleteCorpora).
        const { corpus, summary } = globalThis.navigator?.locks ? await navigator.locks.request(ingestLockName(id), run) : await run();
        return { corpus, summary };
      } catch (error) {
        // Returned rather than thrown: a thrown error crosses to the page without its issues.
        if (error instanceof CorpusLoadError) return { corpus: null, summary: error.summary, message: error.message };
        if (error instanceof DuplicateCorpusError) return { corpus: null, duplicateOf: error.existing, message: error.message };
        if (!(error instanceof StorageFullError)) throw error;
        // Say what is stored now and what would help, measured after the clean-up.
        throw new Error(storageFullAdvice(`“${options.name ?? 'the corpus'}”`, await stores.afterFailedLoad(id)));
      }
    },
  };
}

exposeInWorker(createCorpusWorkerApi(idbWorkerStores()));
