// The blocked term-at-a-time kernel against the whole-corpus one it replaced and against MaxScore, on a generated
// corpus spanning several blocks: identical documents, scores to the bit and order of ties.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../eval/index.ts';
import { MINISEARCH_BM25, OKAPI_BM25, type Bm25Params } from '../params.ts';
import { freqAt, joinDocs } from './compact-index.ts';
import { CompactIndexBuilder } from './index-builder.ts';
import { ACCUMULATOR_BLOCK, accumulatorBlockFor, Accumulators, contains, exhaustiveTopK, maxScoreTopK, ScoringContext, unblockedTopK, type QueryTerm } from './maxscore.ts';
import { findSorted } from './string-table.ts';

const PARAMS: Bm25Params[] = [OKAPI_BM25, MINISEARCH_BM25, { k1: 0.3, b: 0, d: 0, termCountBoost: false }];

/** `count` documents of 1–8 words from a 40-word vocabulary, skewed so that a few words are in most documents. */
function generatedIndex(count: number, seed: number, bits?: number) {
  const next = mulberry32(seed);
  const builder = new CompactIndexBuilder();
  for (let i = 0; i < count; i++) {
    const length = 1 + (next() % 8);
    // Short documents repeat often, so many share a score exactly.
    builder.add(`d${i}`, Array.from({ length }, () => `w${Math.floor(40 * ((next() >>> 0) / 2 ** 32) ** 2.5)}`));
  }
  return builder.build(bits);
}

function queries(termCount: number, count: number, seed: number): QueryTerm[][] {
  const next = mulberry32(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + (next() % 6) }, (_, position) => ({ position, term: next() % termCount })),
  );
}

describe('exhaustiveTopK (blocked term at a time)', () => {
  const index = generatedIndex(3 * ACCUMULATOR_BLOCK + 1234, 11);
  const termCount = index.termStarts.length - 1;
  const whole = new Accumulators(index.documentCount);

  it('spans several blocks of the default size', () => {
    expect(index.documentCount).toBeGreaterThan(3 * ACCUMULATOR_BLOCK);
    expect(termCount).toBeGreaterThan(30);
  });

  for (const params of PARAMS) {
    it(`gives the unblocked kernel's and MaxScore's top-k to the bit (k1 ${params.k1}, b ${params.b}, boost ${params.termCountBoost})`, () => {
      const context = new ScoringContext(index, params);
      for (const blockSize of [8, 512, 4096, ACCUMULATOR_BLOCK]) {
        const acc = new Accumulators(blockSize);
        for (const [i, query] of queries(termCount, 16, blockSize).entries()) {
          // (a few with k beyond every match: those compare whole result lists)
          for (const k of i < 3 ? [1, 10, 200, index.documentCount + 5] : [1, 10, 200]) {
            const expected = unblockedTopK(context, query, k, whole);
            const actual = exhaustiveTopK(context, query, k, acc);
            expect(actual).toEqual(expected);
            if (k <= 200) expect(maxScoreTopK(context, query, k)).toEqual(expected);
          }
        }
        // Every accumulator is left cleared for the next query (adding to a score relies on it being 0).
        expect(acc.quality.every((q) => q === 0)).toBe(true);
        expect(acc.scores.every((s) => s === 0)).toBe(true);
        expect(acc.marks.every((c) => c === 0)).toBe(true);
      }
    }, 300_000);
  }

  it('gives the same top-k to the bit whatever width the low parts of document numbers have (many runs a term)', () => {
    const split = [3, 9, 12].map((bits) => generatedIndex(3 * ACCUMULATOR_BLOCK + 1234, 11, bits));
    expect(split[0]!.postingDocs.runEnd.length).toBeGreaterThan(100 * termCount);
    expect(index.postingDocs.runEnd.length).toBe(termCount);
    const pick = mulberry32(3);
    for (const params of PARAMS) {
      const context = new ScoringContext(index, params);
      const contexts = split.map((other) => new ScoringContext(other, params));
      for (const query of queries(termCount, 24, 5)) {
        for (const k of [1, 10, 200]) {
          const expected = maxScoreTopK(context, query, k);
          for (const other of contexts) {
            expect(maxScoreTopK(other, query, k)).toEqual(expected);
            expect(exhaustiveTopK(other, query, k, new Accumulators())).toEqual(expected);
            expect(unblockedTopK(other, query, k, whole)).toEqual(expected);
          }
        }
      }
      for (const term of [0, 5, termCount - 1]) {
        for (const other of contexts) expect(other.blockUpperBounds(term, 8)).toEqual(context.blockUpperBounds(term, 8));
      }
      for (let i = 0; i < 200; i++) {
        const term = pick() % termCount;
        const doc = pick() % index.documentCount;
        for (const other of split) expect(contains(other, term, doc)).toBe(contains(index, term, doc));
      }
      // a context's own test, within a block's postings once the term's blocks are kept (blocks of 8 divide a run
      // even at 3 bits; blocks of 777 straddle runs, and it searches the run), for documents in the list and not
      const docsOf = (term: number) => Array.from(joinDocs(index.termStarts, index.postingDocs).subarray(index.termStarts[term]!, index.termStarts[term + 1]!));
      for (const blockSize of [8, 777]) {
        for (const other of contexts) {
          for (const term of [0, 5, termCount - 1]) {
            const listed = docsOf(term);
            const probes = [...listed.slice(0, 50), ...Array.from({ length: 50 }, () => pick() % index.documentCount)];
            const before = probes.map((doc) => other.contains(term, doc));
            other.blockStarts(term, blockSize);
            expect(probes.map((doc) => other.contains(term, doc))).toEqual(before);
            expect(before).toEqual(probes.map((doc) => listed.includes(doc)));
          }
        }
      }
    }
  }, 300_000);

  it('takes blocks of about an eighth of the corpus, 2,048 to ACCUMULATOR_BLOCK documents', () => {
    expect([1, 1400, 11_429, 20_000, 40_000, 1_000_000].map(accumulatorBlockFor)).toEqual([2048, 2048, 2048, 4096, ACCUMULATOR_BLOCK, ACCUMULATOR_BLOCK]);
  });

  it("bounds each term's contributions per block of documents, 0 where it has none, and finds where blocks start", () => {
    const context = new ScoringContext(index, OKAPI_BM25);
    for (const blockSize of [777, ACCUMULATOR_BLOCK]) {
      for (const term of [0, 7, termCount >> 1, termCount - 1]) {
        const expected = new Float64Array(Math.ceil(index.documentCount / blockSize));
        const idf = context.idf(term);
        const docs = joinDocs(index.termStarts, index.postingDocs);
        for (let p = index.termStarts[term]!; p < index.termStarts[term + 1]!; p++) {
          const doc = docs[p]!;
          const block = Math.floor(doc / blockSize);
          expected[block] = Math.max(expected[block]!, context.contribution(idf, freqAt(index.postingFreqs, p), doc));
        }
        expect(context.blockUpperBounds(term, blockSize)).toEqual(expected);
        expect(Math.max(...expected)).toBe(context.upperBound(term));
        // where each block starts in the term's postings: its first document ≥ the block's first
        const starts = context.blockStarts(term, blockSize);
        expect(starts).toHaveLength(expected.length + 1);
        for (let b = 0; b <= expected.length; b++) {
          let first = index.termStarts[term]!;
          while (first < index.termStarts[term + 1]! && docs[first]! < b * blockSize) first++;
          expect(starts[b]).toBe(first);
        }
      }
    }
    // Kept up to a budget: with one document a block, 30 terms' bounds over 50,000 documents take 12 MB, so the
    // first ones go (and come back the same when asked again).
    const many = new CompactIndexBuilder();
    for (let i = 0; i < 50_000; i++) many.add(`d${i}`, [`t${i % 30}`, `t${(i * 7) % 30}`]);
    const perDoc = new ScoringContext(many.build(), OKAPI_BM25);
    const first = perDoc.blockUpperBounds(0, 1);
    expect(perDoc.blockUpperBounds(0, 1)).toBe(first);
    for (let t = 1; t < 30; t++) perDoc.blockUpperBounds(t, 1);
    expect(30 * first.byteLength).toBeGreaterThan(8 << 20);
    const again = perDoc.blockUpperBounds(0, 1);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    // a term in blocks 0 and 2 only, the longer document first
    const builder = new CompactIndexBuilder();
    for (let i = 0; i < 3000; i++) builder.add(`d${i}`, i === 5 ? ['rare', 'x', 'y'] : i === 2500 ? ['rare'] : ['common']);
    const small = builder.build();
    const smallContext = new ScoringContext(small, OKAPI_BM25);
    const rare = findSorted(small.terms, 'rare');
    const bounds = smallContext.blockUpperBounds(rare, 1000);
    expect(bounds).toHaveLength(3);
    expect(bounds[1]).toBe(0);
    expect(bounds[2]).toBe(smallContext.upperBound(rare));
    expect(bounds[0]).toBeGreaterThan(0);
    expect(bounds[0]).toBeLessThan(bounds[2]!);
  });

  it('looks a left-out term up in a map of its postings when it is searched often, frequencies above 15 included', () => {
    // Every document has 50 words: `c` in all of them (the lowest bound, left out once the top-k is full, yet with
    // more postings in a block than `r`), `r` once in every tenth (all of them the same `r` score, so every `r`
    // document is a candidate that needs `c`), `f` for the rest. `c`'s frequency decides the top-k: 1–15 in the
    // first block, then rising from 16 to 40 through the next two, so each block's later documents beat the
    // earlier ones only by frequencies above 15.
    const builder = new CompactIndexBuilder();
    for (let i = 0; i < 3 * 4096; i++) {
      const c = i < 4096 ? 1 + (i % 15) : Math.min(40, 16 + Math.floor((i - 4096) / 300));
      const r = i % 10 === 3 ? 1 : 0;
      builder.add(`d${i}`, [...Array<string>(c).fill('c'), ...Array<string>(r).fill('r'), ...Array<string>(50 - c - r).fill('f')]);
    }
    const built = builder.build();
    const query = [{ position: 0, term: findSorted(built.terms, 'r') }, { position: 1, term: findSorted(built.terms, 'c') }];
    for (const params of PARAMS) {
      const context = new ScoringContext(built, params);
      for (const k of [1, 10, 50]) {
        const expected = unblockedTopK(context, query, k, new Accumulators(built.documentCount));
        expect(expected[0]!.quality).toBe(2);
        expect(exhaustiveTopK(context, query, k, new Accumulators(4096))).toEqual(expected);
      }
    }
  });

  it('returns every matching document when k exceeds the matches, ties in MiniSearch order', () => {
    const context = new ScoringContext(index, OKAPI_BM25);
    const rare = termCount - 1;
    const matches = index.termStarts[rare + 1]! - index.termStarts[rare]!;
    const top = exhaustiveTopK(context, [{ position: 0, term: rare }], matches + 100, new Accumulators(1000));
    expect(top).toHaveLength(matches);
    for (let i = 1; i < top.length; i++) {
      const [a, b] = [top[i - 1]!, top[i]!];
      expect(a.score > b.score || (a.score === b.score && a.doc < b.doc)).toBe(true);
    }
  });
});
