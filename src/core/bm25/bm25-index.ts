import type { CorpusDocument } from '../corpus/index.ts';
import { Analyzer, type AnalyzerOptions } from '../text/index.ts';
import { indexBytes, splitIndex, type CompactIndex, type FlatCompactIndex } from './compact/compact-index.ts';
import { CompactIndexBuilder } from './compact/index-builder.ts';
import {
  accumulatorBlockFor,
  Accumulators,
  exhaustiveTopK,
  maxScoreTopK,
  paramsKey,
  ScoringContext,
  unblockedTopK,
  type QueryTerm,
} from './compact/maxscore.ts';
import { packIndex, unpackIndex, type PackedCompactIndex } from './compact/packed-postings.ts';
import { StringTableLookup } from './compact/string-lookup.ts';
import { TokenTermIds } from './compact/token-term-ids.ts';
import { stringAt } from './compact/string-table.ts';
import { explainBm25Score, type Bm25Explanation, type ExplainedTerm } from './explain.ts';
import { compactFromSnapshot, type MiniSearchSnapshot } from './minisearch-snapshot.ts';
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
  version: 4;
  analyzer: AnalyzerOptions;
  documentCount: number;
  /** The index with its postings packed (about a third of the searched arrays' bytes); unpacked on restore. */
  compact: PackedCompactIndex;
}

/** The format stored before version 4: the searched arrays as they are. Still restored. */
export interface SerializedBm25IndexV3 {
  version: 3;
  analyzer: AnalyzerOptions;
  documentCount: number;
  compact: FlatCompactIndex;
}

/** The format stored before version 3: a MiniSearch index as typed arrays. Still restored. */
export interface SerializedMiniSearchBm25Index {
  version: 2;
  analyzer: AnalyzerOptions;
  documentCount: number;
  snapshot: MiniSearchSnapshot;
}

type IndexedDoc = Pick<CorpusDocument, 'id' | 'title' | 'text'>;

/** Parameter sets whose per-document length parts are kept (each is 8 bytes per document). */
const KEPT_CONTEXTS = 2;

/**
 * How the top-k is found. `auto`: term at a time in blocks when the query's postings exceed 1/2,048 of the
 * documents, MaxScore (document at a time) for rarer words. Both give the same results.
 * `auto-unblocked`: `auto` with the term-at-a-time kernel before blocking (accumulators over the whole corpus),
 * the benchmarks' baseline.
 */
export type TopKStrategy = 'auto' | 'maxscore' | 'exhaustive' | 'auto-unblocked';

/**
 * A BM25 index over title + text (one field): Okapi BM25 exactly as MiniSearch scores it (same numbers, same
 * order of equal scores), over a compact typed-array index (`compact/`) searched with MaxScore pruning. Documents
 * are added in batches while a corpus streams in; the serialised form is what is searched after a restore.
 */
export class Bm25Index {
  readonly analyzer: Analyzer;
  private builder: CompactIndexBuilder | null;
  /** Tokens to the builder's term ids while documents are added; dropped with the builder. */
  private tokenIds: TokenTermIds | null = null;
  private index: CompactIndex | null;
  private readonly contexts = new Map<string, ScoringContext>();
  private idNumbers: StringTableLookup | null = null;
  /** Query words to term numbers (see `termNumber`). */
  private termNumbers: StringTableLookup | null = null;
  private accumulators: Accumulators | null = null;
  /** See `TopKStrategy`; settable for tests and benchmarks. */
  strategy: TopKStrategy = 'auto';
  /** Documents per term-at-a-time accumulator block (default `accumulatorBlockFor` the corpus); settable for tests and benchmarks. */
  accumulatorBlock: number | null = null;

  private constructor(analyzer: Analyzer, index: CompactIndex | null) {
    this.analyzer = analyzer;
    this.index = index;
    this.builder = index ? null : new CompactIndexBuilder();
  }

  static create(analyzer: Partial<AnalyzerOptions> = {}): Bm25Index {
    return new Bm25Index(new Analyzer(analyzer), null);
  }

  static restore(serialized: SerializedBm25Index | SerializedBm25IndexV3 | SerializedMiniSearchBm25Index): Bm25Index {
    const analyzer = new Analyzer(serialized.analyzer);
    if (serialized.version === 4) return new Bm25Index(analyzer, unpackIndex(serialized.compact));
    if (serialized.version === 3) return new Bm25Index(analyzer, splitIndex(serialized.compact));
    if (serialized.version === 2) return new Bm25Index(analyzer, splitIndex(compactFromSnapshot(serialized.snapshot)));
    throw new Error(`Unsupported BM25 index format version ${(serialized as { version: unknown }).version}`);
  }

  get documentCount(): number {
    return this.index ? this.index.documentCount : this.builder!.documentCount;
  }

  /** Number of distinct index terms. */
  get termCount(): number {
    return this.index ? this.index.terms.ends.length : this.builder!.termCount;
  }

  /** Bytes of the searched arrays and strings (strings counted at two bytes a character), the term lookup included. */
  get memoryBytes(): number {
    const index = this.compact();
    return indexBytes(index) + StringTableLookup.bytesFor(index.terms.ends.length);
  }

  has(id: string): boolean {
    if (this.builder) return this.builder.has(id);
    this.idNumbers ??= StringTableLookup.of(this.index!.ids);
    return this.idNumbers.indexOf(id) >= 0;
  }

  /** Adds documents; an id already indexed throws (ingestion removes duplicates before this). */
  addAll(documents: readonly IndexedDoc[]): void {
    if (!this.builder) {
      this.builder = CompactIndexBuilder.extending(this.index!);
      this.tokenIds = null;
      this.index = null;
      this.contexts.clear();
      this.idNumbers = null;
      this.termNumbers = null;
      this.accumulators = null;
    }
    const builder = this.builder;
    this.tokenIds ??= new TokenTermIds(this.analyzer, (term) => builder.termId(term));
    for (const doc of documents) {
      builder.refuseKnown(doc.id);
      const { ids, count } = this.tokenIds.idsOf(doc.title ? `${doc.title}\n${doc.text}` : (doc.text ?? ''));
      builder.addTermIds(doc.id, ids, count);
    }
  }

  /** The `k` best documents for `query`, best first. Equal scores keep MiniSearch's order. */
  search(query: string, k: number, params: Bm25Params = OKAPI_BM25): Bm25Hit[] {
    const terms = this.analyzer.queryTerms(query);
    if (terms.length === 0 || k <= 0) return [];
    const index = this.compact();
    const present: Array<QueryTerm & { text: string }> = [];
    for (const text of terms) {
      const t = this.termNumber(index, text);
      if (t >= 0) present.push({ position: present.length, term: t, text });
    }
    let postings = 0;
    for (const q of present) postings += index.termStarts[q.term + 1]! - index.termStarts[q.term]!;
    // (accumulators count matched terms in a byte) The blocked kernel was faster down to about 1/2,500 of the
    // documents (two-word queries at 200k and 1M generated passages; npl at every size): MaxScore is kept below.
    const exhaustive =
      present.length < 255 &&
      (this.strategy === 'exhaustive' || (this.strategy !== 'maxscore' && postings > index.documentCount / 2048));
    const context = this.context(params);
    let top;
    if (exhaustive && this.strategy === 'auto-unblocked') {
      if (this.accumulators?.blockSize !== index.documentCount) this.accumulators = new Accumulators(index.documentCount);
      top = unblockedTopK(context, present, k, this.accumulators);
    } else if (exhaustive) {
      const block = Math.max(1, Math.min(this.accumulatorBlock ?? accumulatorBlockFor(index.documentCount), index.documentCount));
      if (this.accumulators?.blockSize !== block) this.accumulators = new Accumulators(block);
      top = exhaustiveTopK(context, present, k, this.accumulators);
    } else {
      top = maxScoreTopK(context, present, k);
    }
    return top.map(({ doc, score }) => {
      // Built the way MiniSearch reports matched terms (object keys, query order), so the lists are identical.
      const match: Record<string, true> = Object.create(null);
      for (const q of present) if (context.contains(q.term, doc)) match[q.text] = true;
      return { id: stringAt(index.ids, doc), score, terms: Object.keys(match) };
    });
  }

  /**
   * Why document `id` scores what it does for `query`: each query term's idf, tf and contribution (see
   * `explainBm25Score`); the score is exactly what `search` gives the document. Null when the id is not indexed.
   */
  explain(query: string, id: string, params: Bm25Params = OKAPI_BM25): Bm25Explanation | null {
    const index = this.compact();
    this.idNumbers ??= StringTableLookup.of(index.ids);
    const doc = this.idNumbers.indexOf(id);
    if (doc < 0) return null;
    const present: ExplainedTerm[] = [];
    const unknown: string[] = [];
    for (const text of this.analyzer.queryTerms(query)) {
      const term = this.termNumber(index, text);
      if (term >= 0) present.push({ text, term });
      else unknown.push(text);
    }
    return explainBm25Score(this.context(params), id, doc, present, unknown);
  }

  serialize(): SerializedBm25Index {
    return { version: 4, analyzer: { ...this.analyzer.options }, documentCount: this.documentCount, compact: packIndex(this.compact()) };
  }

  private compact(): CompactIndex {
    if (!this.index) {
      const index = this.builder!.build();
      this.builder = null;
      this.tokenIds = null;
      const context = new ScoringContext(index, { ...OKAPI_BM25 });
      index.maxContributions = context.allUpperBounds();
      this.index = index;
      this.contexts.set(paramsKey(OKAPI_BM25), context);
    }
    return this.index;
  }

  /**
   * The term number of a query word, or −1: a hash lookup (about three cache misses) where a binary search of the
   * sorted terms took about 36 dependent ones, 2–5% of a search at 200k passages (the search's own data had pushed
   * the terms out of cache).
   */
  private termNumber(index: CompactIndex, text: string): number {
    this.termNumbers ??= StringTableLookup.of(index.terms);
    return this.termNumbers.indexOf(text);
  }

  private context(params: Bm25Params): ScoringContext {
    const key = paramsKey(params);
    let context = this.contexts.get(key);
    if (!context) {
      if (this.contexts.size >= KEPT_CONTEXTS) this.contexts.delete(this.contexts.keys().next().value!);
      context = new ScoringContext(this.compact(), { ...params });
      this.contexts.set(key, context);
    }
    return context;
  }
}
