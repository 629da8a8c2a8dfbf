import * as Comlink from 'comlink';
import type { CorpusWorkerApi } from '../../workers/corpus-worker-api.ts';
import type { SearchWorkerApi } from '../../workers/search-worker-api.ts';

let corpusWorker: Comlink.Remote<CorpusWorkerApi> | null = null;
let searchWorker: Comlink.Remote<SearchWorkerApi> | null = null;

/** The worker that loads corpora (created on first use). */
export function getCorpusWorker(): Comlink.Remote<CorpusWorkerApi> {
  corpusWorker ??= Comlink.wrap<CorpusWorkerApi>(
    new Worker(new URL('../../workers/corpus.worker.ts', import.meta.url), { type: 'module', name: 'corpus' }),
  );
  return corpusWorker;
}

/** The worker that answers BM25 searches (created on first use). */
export function getSearchWorker(): Comlink.Remote<SearchWorkerApi> {
  searchWorker ??= Comlink.wrap<SearchWorkerApi>(
    new Worker(new URL('../../workers/search.worker.ts', import.meta.url), { type: 'module', name: 'search' }),
  );
  return searchWorker;
}
