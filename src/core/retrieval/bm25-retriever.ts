import { type Bm25Explanation, type Bm25Index, OKAPI_BM25, validateBm25Params, type Bm25Params } from '../bm25/index.ts';
import type { TermMatchingRetriever } from './retriever.ts';
import type { MatchedDoc, ScoredDoc } from '../ranking/index.ts';

/** BM25 over a built index, with fixed scoring parameters. */
export class Bm25Retriever implements TermMatchingRetriever {
  readonly pipeline = 'bm25';
  readonly params: Bm25Params;

  constructor(
    private readonly index: Bm25Index,
    params: Partial<Bm25Params> = {},
  ) {
    this.params = validateBm25Params({ ...OKAPI_BM25, ...params });
  }

  get config(): Readonly<Record<string, unknown>> {
    return { ...this.params, analyzer: { ...this.index.analyzer.options } };
  }

  async search(text: string, k: number): Promise<ScoredDoc[]> {
    return this.index.search(text, k, this.params).map(({ id, score }) => ({ id, score }));
  }

  /** The hits with the terms the index matched (compact and MiniSearch indexes both report them). */
  async searchMatched(text: string, k: number): Promise<MatchedDoc[]> {
    return this.index.search(text, k, this.params);
  }

  /** Why `id` scores what it does for `text` under this retriever's parameters; null when it is not indexed. */
  explain(text: string, id: string): Bm25Explanation | null {
    return this.index.explain(text, id, this.params);
  }
}
