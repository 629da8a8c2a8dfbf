// GQR sweeps and the inspector: prepares queries over stored corpora, re-ranks prepared queries at grid points.
import * as Comlink from 'comlink';
import {
  buildRetriever,
  GqrRetriever,
  RemoteRetriever,
  sweepPreparedQueries,
  tracePrepared,
  type GqrPipelineSpec,
  type GqrPrepared,
  type SweepPreparedQuery,
} from '../core/index.ts';
import { IdbVectorStore, openWorkbenchDb } from '../storage/index.ts';
import { CorpusResourceCache } from './corpus-resources.ts';
import { remoteAwareStore, resourcesOf } from './corpus-sources.ts';
import type { GqrInspection, GqrWorkerApi } from './gqr-worker-api.ts';

const dbPromise = openWorkbenchDb();
const storePromise = dbPromise.then((db) => remoteAwareStore(db));
const resources = new CorpusResourceCache(storePromise, 2, dbPromise.then((db) => new IdbVectorStore(db)));
let current: AbortController | null = null;

// A remote corpus's GQR runs its children on the server (RemoteRetriever.prepare); re-ranking stays here.
async function gqrRetriever(corpusId: string, spec: GqrPipelineSpec): Promise<GqrRetriever | RemoteRetriever> {
  const retriever = await buildRetriever(spec, resourcesOf(corpusId, await storePromise, () => resources.get(corpusId)));
  if (!(retriever instanceof GqrRetriever) && !(retriever instanceof RemoteRetriever)) throw new Error('Not a GQR pipeline');
  return retriever;
}

function inspection(prepared: GqrPrepared, outcome: ReturnType<typeof tracePrepared>): GqrInspection {
  return { ...outcome, primary: prepared.input.primary, complementary: prepared.input.complementary };
}

const api: GqrWorkerApi = {
  async prepare(corpusId, spec, queryIds, topK, onProgress) {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    try {
      const started = performance.now();
      const retriever = await gqrRetriever(corpusId, spec);
      if (retriever instanceof RemoteRetriever) {
        const prepared = await retriever.prepareQueries(queryIds, topK, onProgress, controller.signal);
        return { prepared, config: { ...retriever.config }, loaded: [`Prepared on ${String(retriever.config.server)}`], elapsedMs: performance.now() - started };
      }
      const all = await (await storePromise).getQueries(corpusId);
      const wanted = queryIds ? new Set(queryIds) : null;
      const queries = wanted ? all.filter((q) => wanted.has(q.id)) : all;
      const prepared: SweepPreparedQuery[] = [];
      for (const query of queries) {
        controller.signal.throwIfAborted();
        prepared.push({ queryId: query.id, ...(await retriever.prepare(query.text, topK, controller.signal)) });
        onProgress?.(prepared.length, queries.length);
      }
      return { prepared, config: { ...retriever.config }, loaded: resources.get(corpusId).takeLoadLog(), elapsedMs: performance.now() - started };
    } finally {
      if (current === controller) current = null;
    }
  },

  rerank(prepared, job) {
    return sweepPreparedQueries(prepared, job);
  },

  trace(prepared, config, topK) {
    return inspection(prepared, tracePrepared(prepared, topK, config));
  },

  async inspect(corpusId, spec, text, topK) {
    const retriever = await gqrRetriever(corpusId, spec);
    const prepared = await retriever.prepare(text, topK);
    return inspection(prepared, tracePrepared(prepared, topK, retriever.gqr));
  },

  cancel() {
    current?.abort(new DOMException('The sweep was cancelled', 'AbortError'));
  },

  forget(corpusId) {
    resources.forget(corpusId);
    void storePromise.then((store) => store.forget(corpusId));
  },
};

Comlink.expose(api);
