// The search glue of a served corpus: a pipeline's top-k with the documents and the BM25 terms they match.
// Kept in one place (the retrieval worker has its own copy) so a shared core use case can replace both.
import type { Bm25Index } from '../bm25/bm25-index.ts';
import { buildRetriever, type RetrievalResources } from '../retrieval/build-retriever.ts';
import type { PipelineSpec } from '../retrieval/pipeline-spec.ts';
import type { CorpusStore } from '../storage/corpus-store.ts';
import type { ServedSearchResponse } from './serve-protocol.ts';

export async function searchWithDocuments(
  spec: PipelineSpec,
  query: string,
  k: number,
  corpus: { corpusId: string; corpora: CorpusStore; resources: RetrievalResources },
  signal?: AbortSignal,
): Promise<ServedSearchResponse> {
  const retriever = await buildRetriever(spec, corpus.resources);
  const index: Bm25Index | null = usesBm25(spec) ? await corpus.resources.bm25Index() : null;
  const started = performance.now();
  const hits = await retriever.search(query, k, signal);
  const elapsedMs = performance.now() - started;
  const docs = await corpus.corpora.getDocuments(corpus.corpusId, hits.map((h) => h.id));
  const queryTerms = index ? new Set(index.analyzer.queryTerms(query)) : null;
  return {
    hits: hits.map((hit, i) => {
      const document = docs[i] ?? null;
      const terms = queryTerms && document ? index!.analyzer.terms(`${document.title}\n${document.text}`).filter((t) => queryTerms.has(t)) : [];
      return { id: hit.id, score: hit.score, terms: [...new Set(terms)], document };
    }),
    elapsedMs,
    config: { ...retriever.config },
  };
}

/** Whether a spec (or any pipeline inside it) is BM25, whose matched terms are highlighted. */
export function usesBm25(spec: unknown): boolean {
  if (!spec || typeof spec !== 'object') return false;
  if ((spec as { kind?: unknown }).kind === 'bm25') return true;
  return Object.values(spec).some((value) => (Array.isArray(value) ? value.some(usesBm25) : usesBm25(value)));
}
