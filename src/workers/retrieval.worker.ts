// Retrieval over stored corpora: ad-hoc searches and whole query sets, for any pipeline spec.
import * as Comlink from 'comlink';
import { buildRetriever, describeEmbeddingModel, remoteRunConfig, runQuerySet, type EmbeddingModelInfo, type PipelineSpec } from '../core/index.ts';
import { IdbRunStore, IdbVectorStore, openWorkbenchDb } from '../storage/index.ts';
import { signalOfPort } from './abort-bridge.ts';
import { CorpusResourceCache } from './corpus-resources.ts';
import { remoteAwareStore, resourcesOf } from './corpus-sources.ts';
import type { RetrievalWorkerApi, SearchResponse } from './retrieval-worker-api.ts';

const db = openWorkbenchDb();
const storePromise = db.then((d) => remoteAwareStore(d));
const runStore = db.then((d) => new IdbRunStore(d));
const resources = new CorpusResourceCache(storePromise, 2, db.then((d) => new IdbVectorStore(d)));

/** The corpus's cached resources, after checking it is still stored (another tab may have deleted it). */
async function corpusResources(corpusId: string) {
  if (!(await (await storePromise).getCorpus(corpusId))) {
    resources.forget(corpusId);
    throw new Error('This corpus is no longer stored: it was deleted, perhaps in another tab.');
  }
  return resources.get(corpusId);
}

const api: RetrievalWorkerApi = {
  async search(corpusId: string, spec: PipelineSpec, query: string, k: number): Promise<SearchResponse> {
    const store = await storePromise;
    const remote = await store.remoteOf(corpusId);
    if (remote) {
      const t0 = performance.now();
      const served = await (await store.clientFor(remote.server)).search(remote.corpusId, spec, query, k);
      const config = { ...served.config, ...remoteRunConfig(remote) };
      return { hits: served.hits, elapsedMs: served.elapsedMs, loadMs: performance.now() - t0 - served.elapsedMs, loaded: [`Searched on ${remote.server}`], config, models: embeddingModelsOf(config) };
    }
    const corpus = await corpusResources(corpusId);
    const t0 = performance.now();
    const retriever = await buildRetriever(spec, corpus);
    const index = usesBm25(spec) ? await corpus.bm25Index() : null;
    const t1 = performance.now();
    const hits = await retriever.search(query, k);
    const t2 = performance.now();
    const docs = await (await storePromise).getDocuments(corpusId, hits.map((h) => h.id));
    const queryTerms = index ? new Set(index.analyzer.queryTerms(query)) : null;
    return {
      hits: hits.map((hit, i) => {
        const document = docs[i] ?? null;
        const terms = queryTerms && document ? index!.analyzer.terms(`${document.title}\n${document.text}`).filter((t) => queryTerms.has(t)) : [];
        return { ...hit, terms: [...new Set(terms)], document };
      }),
      elapsedMs: t2 - t1,
      loadMs: t1 - t0,
      loaded: corpus.takeLoadLog(),
      config: retriever.config,
      models: embeddingModelsOf(retriever.config),
    };
  },

  async runQuerySet(request, onProgress, abortPort) {
    const store = await storePromise;
    const remote = await store.remoteOf(request.corpusId);
    const corpus = remote ? null : await corpusResources(request.corpusId);
    const resources = resourcesOf(request.corpusId, store, () => corpus!);
    const deps = { corpora: store, runs: await runStore, resources, onRetrieverReady: () => corpus?.takeLoadLog() };
    const { record } = await runQuerySet(request, deps, { onProgress, signal: signalOfPort(abortPort) });
    return record;
  },

  forget(corpusId: string) {
    resources.forget(corpusId);
    void storePromise.then((store) => store.forget(corpusId));
  },
};

// Whether a spec (or any pipeline inside it) is BM25, whose matched terms are highlighted.
function usesBm25(spec: unknown): boolean {
  if (!spec || typeof spec !== 'object') return false;
  if ((spec as { kind?: unknown }).kind === 'bm25') return true;
  return Object.values(spec).some((value) => (Array.isArray(value) ? value.some(usesBm25) : usesBm25(value)));
}

// Descriptions of the embedding models a configuration records (at any depth, e.g. inside a fusion).
function embeddingModelsOf(config: unknown, found: string[] = []): string[] {
  if (!config || typeof config !== 'object') return found;
  const model = (config as { model?: unknown }).model;
  if (model && typeof model === 'object' && 'modelId' in model && 'dimensions' in model) {
    const label = describeEmbeddingModel(model as EmbeddingModelInfo);
    if (!found.includes(label)) found.push(label);
  }
  for (const value of Object.values(config)) if (value !== model) embeddingModelsOf(value, found);
  return found;
}

Comlink.expose(api);
