import * as Comlink from 'comlink';
import type { CorpusWorkerApi } from '../../workers/corpus-worker-api.ts';
import type { RetrievalWorkerApi } from '../../workers/retrieval-worker-api.ts';

let corpusWorker: Comlink.Remote<CorpusWorkerApi> | null = null;
let retrievalWorker: Comlink.Remote<RetrievalWorkerApi> | null = null;

/** The worker that loads corpora (created on first use). */
export function getCorpusWorker(): Comlink.Remote<CorpusWorkerApi> {
  corpusWorker ??= Comlink.wrap<CorpusWorkerApi>(
    new Worker(new URL('../../workers/corpus.worker.ts', import.meta.url), { type: 'module', name: 'corpus' }),
  );
  return corpusWorker;
}

/** The worker that runs retrieval pipelines: searches and query sets (created on first use). */
export function getRetrievalWorker(): Comlink.Remote<RetrievalWorkerApi> {
  retrievalWorker ??= Comlink.wrap<RetrievalWorkerApi>(
    new Worker(new URL('../../workers/retrieval.worker.ts', import.meta.url), { type: 'module', name: 'retrieval' }),
  );
  return retrievalWorker;
}
