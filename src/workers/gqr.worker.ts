// GQR sweeps and the inspector: prepares queries over stored corpora, re-ranks prepared queries at grid points.
import {
  buildRetriever,
  GqrRetriever,
  prepareSweepQueries,
  RemoteRetriever,
  sweepPreparedQueriesInTasks,
  tracePrepared,
  type GqrPipelineSpec,
  type GqrPrepared,
} from '../core/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import { CorpusResourceCache } from './corpus-resources.ts';
import { forgetRemote, resourcesOf } from './corpus-sources.ts';
import { exposeInWorker } from './expose.ts';
import { vectorShareSlot } from './vector-share-port.ts';
import type { GqrInspection, GqrWorkerApi } from './gqr-worker-api.ts';
import { idbWorkerStores, type WorkerStores } from './worker-stores.ts';

function inspection(prepared: GqrPrepared, outcome: ReturnType<typeof tracePrepared>): GqrInspection {
  return { ...outcome, primary: prepared.input.primary, complementary: prepared.input.complementary };
}

/** The GQR worker's API over `stores`. */
export function createGqrWorkerApi(stores: Pick<WorkerStores, 'corpora' | 'vectors'>): GqrWorkerApi {
  const slot = vectorShareSlot();
  const resources = new CorpusResourceCache(stores.corpora, 2, stores.vectors, slot.share);

  // A remote corpus's GQR runs its children on the server (RemoteRetriever.prepare); re-ranking stays here.
  async function gqrRetriever(corpusId: string, spec: GqrPipelineSpec): Promise<GqrRetriever | RemoteRetriever> {
    const retriever = await buildRetriever(spec, resourcesOf(corpusId, await stores.corpora(), () => resources.get(corpusId)));
    if (!(retriever instanceof GqrRetriever) && !(retriever instanceof RemoteRetriever)) throw new Error('Not a GQR pipeline');
    return retriever;
  }

  return {
    ...slot.target,

    async prepare(corpusId, spec, queryIds, topK, onProgress, abortPort) {
      const signal = signalOfPort(abortPort);
      const started = performance.now();
      const retriever = await gqrRetriever(corpusId, spec);
      if (retriever instanceof RemoteRetriever) {
        const prepared = await retriever.prepareQueries(queryIds, topK, onProgress, signal);
        return { prepared, config: { ...retriever.config }, loaded: [`Prepared on ${String(retriever.config.server)}`], elapsedMs: performance.now() - started };
      }
      const all = await (await stores.corpora()).getQueries(corpusId);
      const wanted = queryIds ? new Set(queryIds) : null;
      const queries = wanted ? all.filter((q) => wanted.has(q.id)) : all;
      const prepared = await prepareSweepQueries(retriever, queries, topK, (p) => onProgress?.(p.done, p.total), signal);
      return { prepared, config: { ...retriever.config }, loaded: resources.get(corpusId).takeLoadLog(), elapsedMs: performance.now() - started };
    },

    rerank(prepared, job, onQueryDone, abortPort) {
      return sweepPreparedQueriesInTasks(prepared, job, onQueryDone, signalOfPort(abortPort));
    },

    trace(prepared, config, topK) {
      return inspection(prepared, tracePrepared(prepared, topK, config));
    },

    async inspect(corpusId, spec, text, topK) {
      const retriever = await gqrRetriever(corpusId, spec);
      const prepared = await retriever.prepare(text, topK);
      return inspection(prepared, tracePrepared(prepared, topK, retriever.gqr));
    },

    forget(corpusId) {
      resources.forget(corpusId);
      void stores.corpora().then((store) => forgetRemote(store, corpusId));
    },
  };
}

exposeInWorker(createGqrWorkerApi(idbWorkerStores()));
