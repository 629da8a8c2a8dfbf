import MiniSearch from 'minisearch';
import type { CorpusDocument } from '../corpus/index.ts';
import { Analyzer, type AnalyzerOptions } from '../text/index.ts';
import type { Bm25Hit, SerializedMiniSearchBm25Index } from './bm25-index.ts';
import { restoreSnapshot, takeSnapshot } from './minisearch-snapshot.ts';
import { OKAPI_BM25, type Bm25Params } from './params.ts';


type IndexedDoc = Pick<CorpusDocument, 'id' | 'title' | 'text'>;

const FIELD = 'content';
// MiniSearch measures a field's length as its number of DISTINCT tokens, while BM25's length normalisation
// needs the number of tokens. Repeated terms are therefore made distinct with a suffix, which processTerm
// strips again before the term reaches the index.
const REPEAT_MARK = '\u0000';

function distinctOccurrences(terms: string[]): string[] {
  const seen = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!;
    const count = seen.get(term) ?? 0;
    if (count > 0) terms[i] = term + REPEAT_MARK + count;
    seen.set(term, count + 1);
  }
  return terms;
}

function stripRepeatMark(token: string): string {
  const at = token.indexOf(REPEAT_MARK);
  return at < 0 ? token : token.slice(0, at);
}

/**
 * BM25 over title + text with MiniSearch's in-memory index: what `MiniSearchBm25` computed before it became compact.
 * Kept as the reference its scores are tested against, and as the writer of format version 2 (which
 * `MiniSearchBm25.restore` still reads). Fine for small corpora; its nested maps cost gigabytes at a million documents.
 */
export class MiniSearchBm25 {
  readonly analyzer: Analyzer;
  private readonly miniSearch: MiniSearch<IndexedDoc>;

  private constructor(analyzer: Analyzer, miniSearch?: MiniSearch<IndexedDoc>) {
    this.analyzer = analyzer;
    this.miniSearch = miniSearch ?? new MiniSearch<IndexedDoc>(MiniSearchBm25.miniSearchOptions(analyzer));
  }

  static create(analyzer: Partial<AnalyzerOptions> = {}): MiniSearchBm25 {
    return new MiniSearchBm25(new Analyzer(analyzer));
  }

  static restore(serialized: SerializedMiniSearchBm25Index): MiniSearchBm25 {
    if (serialized.version !== 2) throw new Error(`Unsupported BM25 index format version ${serialized.version}`);
    const analyzer = new Analyzer(serialized.analyzer);
    const miniSearch = restoreSnapshot<IndexedDoc>(serialized.snapshot, MiniSearchBm25.miniSearchOptions(analyzer));
    return new MiniSearchBm25(analyzer, miniSearch);
  }

  private static miniSearchOptions(analyzer: Analyzer) {
    return {
      idField: 'id',
      fields: [FIELD],
      storeFields: [],
      extractField: (doc: IndexedDoc, field: string) =>
        field === FIELD ? (doc.title ? `${doc.title}\n${doc.text}` : doc.text) : (doc as unknown as Record<string, string>)[field],
      tokenize: (text: string) => distinctOccurrences(analyzer.terms(text)),
      processTerm: stripRepeatMark,
    };
  }

  get documentCount(): number {
    return this.miniSearch.documentCount;
  }

  /** Number of distinct index terms. */
  get termCount(): number {
    return this.miniSearch.termCount;
  }

  has(id: string): boolean {
    return this.miniSearch.has(id);
  }

  /** Adds documents; an id already indexed throws (ingestion removes duplicates before this). */
  addAll(documents: readonly IndexedDoc[]): void {
    this.miniSearch.addAll(documents);
  }

  /** The `k` best documents for `query`, best first. Documents with equal scores keep index order. */
  search(query: string, k: number, params: Bm25Params = OKAPI_BM25): Bm25Hit[] {
    const terms = this.analyzer.queryTerms(query);
    if (terms.length === 0 || k <= 0) return [];
    const results = this.miniSearch.search(terms.join(' '), {
      tokenize: () => terms,
      processTerm: (term: string) => term,
      combineWith: 'OR',
      prefix: false,
      fuzzy: false,
      bm25: { k: params.k1, b: params.b, d: params.d },
    });
    const hits: Bm25Hit[] = results.map((r) => ({
      id: String(r.id),
      score: params.termCountBoost ? r.score : r.score / (r.queryTerms.length || 1),
      terms: r.terms,
    }));
    // MiniSearch sorted by boosted score; dividing the boost out can change the order (the sort is stable).
    if (!params.termCountBoost) hits.sort((a, b) => b.score - a.score);
    return hits.length > k ? hits.slice(0, k) : hits;
  }

  serialize(): SerializedMiniSearchBm25Index {
    return {
      version: 2,
      analyzer: { ...this.analyzer.options },
      documentCount: this.miniSearch.documentCount,
      snapshot: takeSnapshot(this.miniSearch),
    };
  }
}
