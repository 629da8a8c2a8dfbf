import {
  assertCompleteSet,
  Bm25Index,
  canShareMemory,
  describeEmbeddingModel,
  describeModelSource,
  loadTokenStore,
  resolveVectorForm,
  sameEmbeddingModel,
  COMPACT_FROM_ROWS,
  type CorpusStore,
  type DenseIndex,
  type EmbeddingSetRecord,
  type MultiVectorStore,
  type RetrievalResources,
  type VectorFormChoice,
  type VectorStore,
} from '../core/index.ts';
import { loadBrowserEmbedder, settingsKey, type LoadedEmbedder } from './browser-embedder.ts';
import type { ModelSettings } from './embed-worker-api.ts';
import { loadVectorSet, type VectorShare } from './vector-share.ts';

/**
 * Retrieval resources of stored corpora for a worker: restored from storage on first use, then cached for
 * the few corpora in use.
 */
export class CorpusResourceCache {
  private readonly cache = new Map<string, CorpusResources>();

  constructor(
    /** Opened on the first `get` (importing a worker opens nothing). */
    private readonly store: () => Promise<CorpusStore>,
    private readonly keep = 2,
    private readonly vectors: (() => Promise<VectorStore>) | null = null,
    /** The page's broker of shared vector sets, once connected (see vector-share.ts). */
    private readonly share: () => VectorShare | null = () => null,
  ) {}

  get(corpusId: string): CorpusResources {
    let resources = this.cache.get(corpusId);
    if (resources) this.cache.delete(corpusId); // re-inserted below: most recently used last
    else resources = new CorpusResources(corpusId, this.store(), this.vectors?.() ?? null, this.share);
    this.cache.set(corpusId, resources);
    while (this.cache.size > this.keep) this.cache.delete(this.cache.keys().next().value!);
    return resources;
  }

  forget(corpusId: string): void {
    this.cache.delete(corpusId);
  }
}

// Query models, shared by every corpus whose sets were made with the same settings.
const queryModels = new Map<string, Promise<LoadedEmbedder>>();

/** The model settings an embedding set was made with, to load the same model for its queries. */
function settingsOf(set: EmbeddingSetRecord): ModelSettings {
  const { model } = set;
  return {
    source: set.source,
    dtype: model.dtype as ModelSettings['dtype'],
    pooling: model.pooling === 'cls' ? 'cls' : 'mean',
    prefixes: model.prefixes,
    maxTokens: set.maxTokens,
  };
}

function queryModel(settings: ModelSettings): Promise<LoadedEmbedder> {
  const key = settingsKey(settings);
  let model = queryModels.get(key);
  if (!model) {
    // Single queries are small: wasm answers them without WebGPU's start-up cost.
    model = loadBrowserEmbedder(settings, { preferGpu: false, batchSize: 1 });
    queryModels.set(key, model);
    model.catch(() => queryModels.get(key) === model && queryModels.delete(key));
  }
  return model;
}

/** One corpus's resources; records what it had to load so the UI can say so. */
export class CorpusResources implements RetrievalResources {
  /** Descriptions of loads since the last `takeLoadLog()`. */
  private loadLog: string[] = [];
  private bm25: Promise<Bm25Index> | null = null;
  private readonly dense = new Map<string, Promise<DenseIndex>>();

  constructor(
    readonly corpusId: string,
    private readonly store: Promise<CorpusStore>,
    private readonly vectors: Promise<VectorStore> | null = null,
    private readonly share: () => VectorShare | null = () => null,
  ) {}

  bm25Index(): Promise<Bm25Index> {
    this.bm25 ??= (async () => {
      const serialized = await (await this.store).getBm25Index(this.corpusId);
      if (!serialized) throw new Error('This corpus has no stored BM25 index; it may have been deleted.');
      const index = Bm25Index.restore(serialized);
      this.loadLog.push('BM25 index restored from storage');
      return index;
    })();
    this.bm25.catch(() => (this.bm25 = null));
    return this.bm25;
  }

  // Large sets searched in a compact form are held only in that form (float32 rows stay in storage for rescoring);
  // everything else holds the float32 matrix, from which a retriever derives a compact form when asked.
  async denseIndex(modelKey: string, vectorForm?: VectorFormChoice): Promise<DenseIndex> {
    const set = this.vectors ? await (await this.vectors).getSet(this.corpusId, modelKey) : undefined;
    const compactOnly = set !== undefined && set.rowsDone >= COMPACT_FROM_ROWS && resolveVectorForm(vectorForm, set.rowsDone) !== 'float32';
    const key = `${modelKey}${compactOnly ? ' compact' : ''}`;
    let index = this.dense.get(key);
    if (!index) {
      index = this.loadDense(modelKey, compactOnly);
      this.dense.set(key, index);
      index.catch(() => this.dense.get(key) === index && this.dense.delete(key));
    }
    return index;
  }

  private async loadDense(modelKey: string, compactOnly: boolean): Promise<DenseIndex> {
    if (!this.vectors) throw new Error('Dense retrieval is not available here (no vector storage).');
    const vectors = await this.vectors;
    const set = await vectors.getSet(this.corpusId, modelKey);
    if (!set) throw new Error('This corpus has no stored vectors for that model (they may have been deleted); embed it on the Embeddings page.');
    assertCompleteSet(set);
    // Vectors and model load side by side; a model that cannot load stops only dense pipelines.
    const [{ stored, shared }, model] = await Promise.all([
      loadVectorSet(vectors, set, compactOnly ? 'compact' : 'float32', canShareMemory() ? this.share() : null),
      queryModel(settingsOf(set)).catch((error: Error) => {
        throw new Error(`The vectors are stored, but their model cannot be loaded to embed the query: ${error.message}`, { cause: error });
      }),
    ]);
    const { embedder } = model;
    if (!sameEmbeddingModel(embedder.info, set.model)) {
      throw new Error(
        `The model loaded from ${describeModelSource(set.source)} is ${describeEmbeddingModel(embedder.info)}, but these vectors were made ` +
          `with ${describeEmbeddingModel(set.model)}. Vectors are never searched with another model; restore the original model files or embed again.`,
      );
    }
    const form = compactOnly ? ' in int8 form (float32 rows read for rescoring)' : '';
    this.loadLog.push(
      shared
        ? `${set.rowsDone} vectors of ${set.model.modelId} shared by another worker${form} (same memory, not loaded again)`
        : `${set.rowsDone} vectors of ${set.model.modelId} restored from storage${form}`,
    );
    let tokens: Promise<MultiVectorStore> | null = null;
    return {
      ...stored,
      embedder,
      tokens: set.tokens ? () => (tokens ??= loadTokenStore(vectors, set)) : undefined,
    };
  }

  takeLoadLog(): string[] {
    const log = this.loadLog;
    this.loadLog = [];
    return log;
  }
}
