import MiniSearch from 'minisearch';
import type { CorpusDocument } from '../corpus/types.ts';
import { Analyzer, type AnalyzerOptions } from '../text/analyzer.ts';
import { restoreSnapshot, takeSnapshot, type MiniSearchSnapshot } from './minisearch-snapshot.ts';
import { OKAPI_BM25, type Bm25Params } from './params.ts';

/** One BM25 result. */
export interface Bm25Hit {
  id: string;
  score: number;
  /** The index terms of the query that the document contains (for highlighting). */
  terms: string[];
}

/** What `Bm25Index.serialize` produces and `Bm25Index.restore` reads back (structured-clonable, not JSON). */
export interface SerializedBm25Index {
  /** Format version of this record. */
  version: 2;
  analyzer: AnalyzerOptions;
  documentCount: number;
  /** The MiniSearch index as typed arrays. */
  snapshot: MiniSearchSnapshot;
}

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
 * A BM25 index over title + text (one field), built with MiniSearch. Documents are added in batches while a
 * corpus streams in; the index serialises to typed arrays (SerializedBm25Index) that restore without re-tokenising anything.
 */
export class Bm25Index {
  readonly analyzer: Analyzer;
  private readonly miniSearch: MiniSearch<IndexedDoc>;

  private constructor(analyzer: Analyzer, miniSearch?: MiniSearch<IndexedDoc>) {
    this.analyzer = analyzer;
    this.miniSearch = miniSearch ?? new MiniSearch<IndexedDoc>(Bm25Index.miniSearchOptions(analyzer));
  }

  static create(analyzer: Partial<AnalyzerOptions> = {}): Bm25Index {
    return new Bm25Index(new Analyzer(analyzer));
  }

  static restore(serialized: SerializedBm25Index): Bm25Index {
    if (serialized.version !== 2) throw new Error(`Unsupported BM25 index format version ${serialized.version}`);
    const analyzer = new Analyzer(serialized.analyzer);
    const miniSearch = restoreSnapshot<IndexedDoc>(serialized.snapshot, Bm25Index.miniSearchOptions(analyzer));
    return new Bm25Index(analyzer, miniSearch);
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

  serialize(): SerializedBm25Index {
    return {
      version: 2,
      analyzer: { ...this.analyzer.options },
      documentCount: this.miniSearch.documentCount,
      snapshot: takeSnapshot(this.miniSearch),
    };
  }
}
