// Retrieval over stored corpora: ad-hoc searches and whole query sets, for any pipeline spec.
import { explainResult, remoteRunConfig, runEnvironment, runQuerySet, searchCorpus, storedModelFiles } from '../core/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import { browserHostEnvironment } from './browser-environment.ts';
import { CorpusResourceCache } from './corpus-resources.ts';
import { forgetRemote, remoteOf, resourcesOf } from './corpus-sources.ts';
import { exposeInWorker } from './expose.ts';
import { vectorShareSlot } from './vector-share-port.ts';
import type { RetrievalWorkerApi } from './retrieval-worker-api.ts';
import { idbWorkerStores, type WorkerStores } from './worker-stores.ts';

/** The retrieval worker's API over `stores`. */
export function createRetrievalWorkerApi(stores: Pick<WorkerStores, 'corpora' | 'vectors' | 'runs'>): RetrievalWorkerApi {
  const slot = vectorShareSlot();
  const resources = new CorpusResourceCache(stores.corpora, 2, stores.vectors, slot.share);

  /** The corpus's cached resources, after checking it is still stored (another tab may have deleted it). */
  async function corpusResources(corpusId: string) {
    if (!(await (await stores.corpora()).getCorpus(corpusId))) {
      resources.forget(corpusId);
      throw new Error('This corpus is no longer stored: it was deleted, perhaps in another tab.');
    }
    return resources.get(corpusId);
  }

  return {
    ...slot.target,

    async search(corpusId, spec, query, k) {
      const store = await stores.corpora();
      const remote = await remoteOf(store, corpusId);
      if (remote) {
        // Served by dsw serve: the pipeline runs there (RemoteRetriever), documents come from there too.
        const local = () => {
          throw new Error('A remote corpus has no local index');
        };
        const result = await searchCorpus({ corpusId, spec, query, k }, { corpora: store, resources: resourcesOf(corpusId, store, local) });
        return { ...result, config: { ...result.config, ...remoteRunConfig(remote) }, loaded: [`Searched on ${remote.server}`] };
      }
      const corpus = await corpusResources(corpusId);
      const result = await searchCorpus({ corpusId, spec, query, k }, { corpora: await stores.corpora(), resources: corpus });
      return { ...result, loaded: corpus.takeLoadLog() };
    },

    async explain(corpusId, request) {
      if (await remoteOf(await stores.corpora(), corpusId)) throw new Error('A served corpus ranks on its server: “why” needs the corpus loaded in this browser.');
      const corpus = await corpusResources(corpusId);
      const why = await explainResult(request, corpus);
      corpus.takeLoadLog();
      return why;
    },

    async runQuerySet(request, onProgress, abortPort) {
      const store = await stores.corpora();
      const remote = await remoteOf(store, request.corpusId);
      const corpus = remote ? null : await corpusResources(request.corpusId);
      const deps = {
        corpora: store,
        runs: await stores.runs(),
        resources: resourcesOf(request.corpusId, store, () => corpus!),
        onRetrieverReady: () => void corpus?.takeLoadLog(),
      };
      const modelFiles = await storedModelFiles(await stores.vectors(), request.corpusId, request.spec);
      const environment = runEnvironment(browserHostEnvironment(), request.spec, modelFiles);
      const { record } = await runQuerySet({ ...request, environment }, deps, { onProgress, signal: signalOfPort(abortPort) });
      return record;
    },

    forget(corpusId: string) {
      resources.forget(corpusId);
      void stores.corpora().then((store) => forgetRemote(store, corpusId));
    },
  };
}

exposeInWorker(createRetrievalWorkerApi(idbWorkerStores()));
