import { fuse, type FusionConfig } from '../fusion/index.ts';
import { matchesTerms, type Retriever, type TermMatchingRetriever } from './retriever.ts';
import type { MatchedDoc, ScoredDoc } from '../ranking/index.ts';

/** Children fetch `topK × fetchKMultiplier` before fusing (docs/decisions.md#fusion-and-retrieval). */
export const DEFAULT_FETCH_K_MULTIPLIER = 2;

/** A fusion method without the fetch depth, which the retriever sets per search. */
export type FusionMethodConfig =
  | ({ method: 'rrf' } & Omit<Extract<FusionConfig, { method: 'rrf' }>, 'method' | 'fetchK'>)
  | Extract<FusionConfig, { method: 'cc' }>;

/**
 * Hybrid retrieval as the reference (docs/decisions.md#fusion-and-retrieval): both children are asked for
 * `fetchK = k × fetchKMultiplier` results, one after the other, and their lists are fused (RRF or convex combination)
 * into the top `k`.
 */
export class FusionRetriever implements TermMatchingRetriever {
  readonly pipeline: 'rrf' | 'cc';
  /** Depth of each child's list, as a multiple of `k`. */
  readonly fetchKMultiplier: number;

  constructor(
    private readonly first: Retriever,
    private readonly second: Retriever,
    private readonly fusion: FusionMethodConfig,
    fetchKMultiplier = DEFAULT_FETCH_K_MULTIPLIER,
  ) {
    if (!Number.isInteger(fetchKMultiplier) || fetchKMultiplier < 1) {
      throw new Error(`fetchKMultiplier must be a whole number of at least 1, got ${fetchKMultiplier}`);
    }
    if (fusion.method === 'rrf' && fusion.k !== undefined && !(Number.isFinite(fusion.k) && fusion.k >= 0)) {
      throw new Error(`rrf k must be a non-negative number, got ${fusion.k}`);
    }
    if (fusion.method === 'cc') {
      const weight = fusion.weight ?? 0.5;
      if (!(Number.isFinite(weight) && weight >= 0 && weight <= 1)) throw new Error(`weight must be between 0 and 1, got ${weight}`);
      if (fusion.normalizeMethod === 'tmm') {
        if (fusion.pipeline1Min == null) throw new Error('TMM normalization requires pipeline_1_min');
        if (fusion.pipeline2Min == null) throw new Error('TMM normalization requires pipeline_2_min');
      }
    }
    this.pipeline = fusion.method;
    this.fetchKMultiplier = fetchKMultiplier;
  }

  /** The two children, in order (pipeline 1, pipeline 2). */
  get children(): readonly [Retriever, Retriever] {
    return [this.first, this.second];
  }

  get config(): Readonly<Record<string, unknown>> {
    return {
      ...this.fusion,
      fetchKMultiplier: this.fetchKMultiplier,
      pipeline1: { pipeline: this.first.pipeline, config: this.first.config },
      pipeline2: { pipeline: this.second.pipeline, config: this.second.config },
    };
  }

  async search(text: string, k: number, signal?: AbortSignal): Promise<ScoredDoc[]> {
    const fetchK = k * this.fetchKMultiplier;
    const list1 = await this.first.search(text, fetchK, signal);
    signal?.throwIfAborted();
    const list2 = await this.second.search(text, fetchK, signal);
    return fuse(list1, list2, this.fuseConfig(fetchK), k);
  }

  /** The fused list, each result with the terms a BM25 child matched in it (empty when none scored it). */
  async searchMatched(text: string, k: number, signal?: AbortSignal): Promise<MatchedDoc[]> {
    const fetchK = k * this.fetchKMultiplier;
    const terms = new Map<string, readonly string[]>();
    const childList = async (child: Retriever) => {
      if (!matchesTerms(child)) return child.search(text, fetchK, signal);
      const list = await child.searchMatched(text, fetchK, signal);
      for (const hit of list) if (!terms.has(hit.id)) terms.set(hit.id, hit.terms);
      return list;
    };
    const list1 = await childList(this.first);
    signal?.throwIfAborted();
    const list2 = await childList(this.second);
    return fuse(list1, list2, this.fuseConfig(fetchK), k).map(({ id, score }) => ({ id, score, terms: terms.get(id) ?? [] }));
  }

  private fuseConfig(fetchK: number): FusionConfig {
    return this.fusion.method === 'rrf' ? { ...this.fusion, fetchK } : this.fusion;
  }
}
