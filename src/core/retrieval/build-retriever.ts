import type { Bm25Index } from '../bm25/bm25-index.ts';
import { Bm25Retriever } from './bm25-retriever.ts';
import type { PipelineSpec } from './pipeline-spec.ts';
import type { Retriever } from './retriever.ts';

/**
 * What a host (a worker, the CLI, a test) provides for building retrievers over one corpus. Resources are
 * loaded on demand: a BM25-only pipeline never loads an embedding model.
 */
export interface RetrievalResources {
  /** The corpus's BM25 index. */
  bm25Index(): Promise<Bm25Index>;
}

/** Turns a pipeline spec into a Retriever over the given resources. */
export async function buildRetriever(spec: PipelineSpec, resources: RetrievalResources): Promise<Retriever> {
  switch (spec.kind) {
    case 'bm25':
      return new Bm25Retriever(await resources.bm25Index(), spec.params);
    default:
      throw new Error(`Unknown pipeline kind: ${String((spec as { kind: unknown }).kind)}`);
  }
}
