// The worker clients of this page, each created on first use.
import * as Comlink from 'comlink';
import type { CompareWorkerApi } from '../../workers/compare-worker-api.ts';
import type { CorpusWorkerApi } from '../../workers/corpus-worker-api.ts';
import type { EmbedWorkerApi } from '../../workers/embed-worker-api.ts';
import type { HdsWorkerApi } from '../../workers/hds-worker-api.ts';
import type { RetrievalWorkerApi } from '../../workers/retrieval-worker-api.ts';
import { connectVectorShare } from './vector-broker.ts';

let corpusWorker: Comlink.Remote<CorpusWorkerApi> | null = null;
let retrievalWorker: Comlink.Remote<RetrievalWorkerApi> | null = null;
let embedWorker: Comlink.Remote<EmbedWorkerApi> | null = null;
let hdsWorker: Comlink.Remote<HdsWorkerApi> | null = null;
let compareWorker: { worker: Worker; remote: Comlink.Remote<CompareWorkerApi> } | null = null;

/** The worker that loads corpora. */
export function getCorpusWorker(): Comlink.Remote<CorpusWorkerApi> {
  corpusWorker ??= Comlink.wrap<CorpusWorkerApi>(
    new Worker(new URL('../../workers/corpus.worker.ts', import.meta.url), { type: 'module', name: 'corpus' }),
  );
  return corpusWorker;
}

/** The worker that runs retrieval pipelines: searches and query sets. */
export function getRetrievalWorker(): Comlink.Remote<RetrievalWorkerApi> {
  if (!retrievalWorker) {
    retrievalWorker = Comlink.wrap<RetrievalWorkerApi>(
      new Worker(new URL('../../workers/retrieval.worker.ts', import.meta.url), { type: 'module', name: 'retrieval' }),
    );
    connectVectorShare(retrievalWorker, 'retrieval');
  }
  return retrievalWorker;
}

/** The worker that embeds corpora (it loads the model once and keeps it). */
export function getEmbedWorker(): Comlink.Remote<EmbedWorkerApi> {
  embedWorker ??= Comlink.wrap<EmbedWorkerApi>(
    new Worker(new URL('../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' }),
  );
  return embedWorker;
}

/** The worker that runs HDS and the baselines. */
export function getHdsWorker(): Comlink.Remote<HdsWorkerApi> {
  if (!hdsWorker) {
    hdsWorker = Comlink.wrap<HdsWorkerApi>(new Worker(new URL('../../workers/hds.worker.ts', import.meta.url), { type: 'module', name: 'hds' }));
    connectVectorShare(hdsWorker, 'hds');
  }
  return hdsWorker;
}

/** The worker that compares runs (significance tests). */
export function getCompareWorker(): Comlink.Remote<CompareWorkerApi> {
  if (!compareWorker) {
    const worker = new Worker(new URL('../../workers/compare.worker.ts', import.meta.url), { type: 'module', name: 'compare' });
    compareWorker = { worker, remote: Comlink.wrap<CompareWorkerApi>(worker) };
  }
  return compareWorker.remote;
}

/** Ends the compare worker at once (a comparison cannot be interrupted); the next use starts a new one. */
export function stopCompareWorker(): void {
  compareWorker?.worker.terminate();
  compareWorker = null;
}

/** Names of the Web Locks held in this origin (running batches hold one), or null when the browser cannot tell. */
export async function heldLocks(): Promise<Set<string> | null> {
  if (!navigator.locks?.query) return null;
  const snapshot = await navigator.locks.query();
  return new Set((snapshot.held ?? []).map((lock) => lock.name ?? ''));
}
