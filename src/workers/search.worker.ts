// BM25 search over stored corpora. Indexes are restored from IndexedDB on first use and kept while in use.
import * as Comlink from 'comlink';
import { Bm25Index, type Bm25Params } from '../core/index.ts';
import { IdbCorpusStore, openWorkbenchDb } from '../storage/index.ts';
import type { SearchResponse, SearchWorkerApi } from './search-worker-api.ts';

const storePromise = openWorkbenchDb().then((db) => new IdbCorpusStore(db));
const KEEP = 2;
const indexes = new Map<string, Promise<Bm25Index>>();

async function indexFor(corpusId: string): Promise<{ index: Bm25Index; restored: boolean }> {
  const cached = indexes.get(corpusId);
  if (cached) {
    indexes.delete(corpusId); // re-insert: most recently used last
    indexes.set(corpusId, cached);
    return { index: await cached, restored: false };
  }
  const loading = (async () => {
    const serialized = await (await storePromise).getBm25Index(corpusId);
    if (!serialized) throw new Error('This corpus has no stored index; it may have been deleted.');
    return Bm25Index.restore(serialized);
  })();
  indexes.set(corpusId, loading);
  loading.catch(() => indexes.delete(corpusId));
  while (indexes.size > KEEP) indexes.delete(indexes.keys().next().value!);
  return { index: await loading, restored: true };
}

const api: SearchWorkerApi = {
  async search(corpusId: string, query: string, k: number, params: Bm25Params): Promise<SearchResponse> {
    const t0 = performance.now();
    const { index, restored } = await indexFor(corpusId);
    const t1 = performance.now();
    const hits = index.search(query, k, params);
    const t2 = performance.now();
    const docs = await (await storePromise).getDocuments(corpusId, hits.map((h) => h.id));
    return {
      hits: hits.map((hit, i) => ({ ...hit, document: docs[i] ?? null })),
      elapsedMs: t2 - t1,
      restored,
      restoreMs: restored ? t1 - t0 : 0,
    };
  },
  forget(corpusId: string) {
    indexes.delete(corpusId);
  },
};

Comlink.expose(api);
