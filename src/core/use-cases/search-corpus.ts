import type { CorpusDocument } from '../corpus/index.ts';
import { describeEmbeddingModel, type EmbeddingModelInfo } from '../embedding/index.ts';
import { buildRetriever, type RetrievalResources, type PipelineSpec, matchesTerms } from '../retrieval/index.ts';
import type { CorpusStore } from '../storage/index.ts';

/** One ad-hoc search of a stored corpus. */
export interface CorpusSearchRequest {
  corpusId: string;
  spec: PipelineSpec;
  query: string;
  k: number;
}

/** One search result with what the UI shows of it. */
export interface CorpusSearchHit {
  id: string;
  score: number;
  /** Index terms of the query that BM25 matched in the document, for highlighting (empty when no BM25 scored it). */
  terms: string[];
  document: CorpusDocument | null;
}

export interface CorpusSearchResult {
  hits: CorpusSearchHit[];
  /** Time spent retrieving, in ms (excluding loading indexes or models). */
  elapsedMs: number;
  /** Time spent loading what the pipeline needed (index restored from storage, model), 0 when cached. */
  loadMs: number;
  /** The pipeline's full configuration, as a run would save it. */
  config: Readonly<Record<string, unknown>>;
  /** The embedding models that produced the results (dense pipelines), described in one line each. */
  models: string[];
}

/** What a search runs on. */
export interface CorpusSearchDeps {
  corpora: Pick<CorpusStore, 'getDocuments'>;
  /** Indexes and vectors of the corpus. */
  resources: RetrievalResources;
}

/**
 * Searches a corpus with any pipeline and returns the documents, each with the query terms its BM25 scorer matched
 * (taken from the index's own hits, never by tokenising the documents again).
 */
export async function searchCorpus(request: CorpusSearchRequest, deps: CorpusSearchDeps): Promise<CorpusSearchResult> {
  const { corpusId, spec, query, k } = request;
  const t0 = performance.now();
  const retriever = await buildRetriever(spec, deps.resources);
  const t1 = performance.now();
  const hits: { id: string; score: number; terms?: readonly string[] }[] = matchesTerms(retriever)
    ? await retriever.searchMatched(query, k)
    : await retriever.search(query, k);
  const t2 = performance.now();
  const docs = await deps.corpora.getDocuments(corpusId, hits.map((h) => h.id));
  return {
    hits: hits.map((hit, i) => ({ id: hit.id, score: hit.score, terms: [...(hit.terms ?? [])], document: docs[i] ?? null })),
    elapsedMs: t2 - t1,
    loadMs: t1 - t0,
    config: retriever.config,
    models: embeddingModelsOf(retriever.config),
  };
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
