import { Bm25Index, type CorpusStore, type RetrievalResources } from '../core/index.ts';

/**
 * Retrieval resources of stored corpora for a worker: restored from storage on first use, then cached for
 * the few corpora in use.
 */
export class CorpusResourceCache {
  private readonly cache = new Map<string, CorpusResources>();

  constructor(
    private readonly store: Promise<CorpusStore>,
    private readonly keep = 2,
  ) {}

  get(corpusId: string): CorpusResources {
    let resources = this.cache.get(corpusId);
    if (resources) this.cache.delete(corpusId); // re-inserted below: most recently used last
    else resources = new CorpusResources(corpusId, this.store);
    this.cache.set(corpusId, resources);
    while (this.cache.size > this.keep) this.cache.delete(this.cache.keys().next().value!);
    return resources;
  }

  forget(corpusId: string): void {
    this.cache.delete(corpusId);
  }
}

/** One corpus's resources; records what it had to load so the UI can say so. */
export class CorpusResources implements RetrievalResources {
  /** Descriptions of loads since the last `takeLoadLog()`. */
  private loadLog: string[] = [];
  private bm25: Promise<Bm25Index> | null = null;

  constructor(
    readonly corpusId: string,
    private readonly store: Promise<CorpusStore>,
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

  takeLoadLog(): string[] {
    const log = this.loadLog;
    this.loadLog = [];
    return log;
  }
}
