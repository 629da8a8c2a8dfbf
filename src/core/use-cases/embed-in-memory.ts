import { loadTokenStore, loadVectorMatrix } from '../dense/index.ts';
import { embedCorpus, type EmbedCorpusOptions } from './embed-corpus.ts';
import { type Embedder, embeddingModelKey } from '../embedding/index.ts';
import type { DenseIndex } from '../retrieval/index.ts';
import { type CorpusStore, MemoryVectorStore, type EmbeddingSetRecord } from '../storage/index.ts';

/** Where a host keeps a corpus's document vectors between runs (the CLI: files keyed by model, settings and texts). */
export interface DocumentVectorCache {
  /** Fills `vectors` with the set when it is cached; true when it did. */
  restore(vectors: MemoryVectorStore): Promise<boolean>;
  /** Keeps the set just embedded. */
  save(set: EmbeddingSetRecord, vectors: MemoryVectorStore): Promise<void>;
}

/** Options of {@link embedCorpusInMemory}: those of `embedCorpus`, and the cache to read first and fill after. */
export interface EmbedInMemoryOptions extends EmbedCorpusOptions {
  cache?: DocumentVectorCache;
}

/** A corpus embedded into memory: its set, the dense index over it, and whether it came from the cache. */
export interface EmbeddedInMemory {
  set: EmbeddingSetRecord;
  index: DenseIndex;
  fromCache: boolean;
}

/**
 * Embeds every document of a stored corpus into a memory vector store (or reads the set from `cache`) and opens
 * the dense index over it: what a host without persistent vector storage (the CLI, a server) searches.
 */
export async function embedCorpusInMemory(embedder: Embedder, corpora: CorpusStore, options: EmbedInMemoryOptions): Promise<EmbeddedInMemory> {
  const { cache, ...embedOptions } = options;
  const vectors = new MemoryVectorStore();
  if (cache && (await cache.restore(vectors))) {
    const set = await vectors.getSet(options.corpusId, embeddingModelKey(embedder.info));
    if (set) return { set, index: { matrix: await loadVectorMatrix(vectors, set), embedder }, fromCache: true };
  }
  const set = await embedCorpus(embedder, corpora, vectors, embedOptions);
  if (cache) await cache.save(set, vectors);
  const matrix = await loadVectorMatrix(vectors, set);
  return { set, index: { matrix, embedder, tokens: set.tokens ? () => loadTokenStore(vectors, set) : undefined }, fromCache: false };
}
