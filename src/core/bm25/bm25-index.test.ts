import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index.ts';
import { joinDocs, unpackFreqs } from './compact/compact-index.ts';
import { unpackIndex } from './compact/packed-postings.ts';
import { MINISEARCH_BM25, OKAPI_BM25, validateBm25Params } from './params.ts';

// Three documents; with the default analyzer their terms are
//   d1: cat cat dog (3 terms)   d2: dog bird (2)   d3: fish (1)      → N = 3, avgdl = 2
const docs = [
  { id: 'd1', title: '', text: 'Cats cat dog' },
  { id: 'd2', title: 'Dog', text: 'bird' },
  { id: 'd3', title: '', text: 'the fish' },
];
const idf = (n: number) => Math.log(1 + (3 - n + 0.5) / (n + 0.5));
const tfPart = (tf: number, dl: number, k1 = 0.9, b = 0.4) => (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / 2));

function build() {
  const index = Bm25Index.create();
  index.addAll(docs);
  return index;
}

describe('Bm25Index (plain Okapi BM25)', () => {
  it('scores one term with idf · tf(k1+1)/(tf + k1(1−b+b·dl/avgdl)), counting repeated terms in the length', () => {
    const [hit] = build().search('cat', 10);
    expect(hit!.id).toBe('d1');
    // idf = ln(1 + 2.5/1.5) = ln(8/3); tf 2, dl 3 → 2·1.9 / (2 + 0.9·1.2) = 3.8 / 3.08
    expect(hit!.score).toBeCloseTo(Math.log(8 / 3) * (3.8 / 3.08), 12);
    expect(hit!.score).toBeCloseTo(idf(1) * tfPart(2, 3), 12);
  });

  it('sums the terms of a query without MiniSearch’s matched-terms multiplier', () => {
    const hits = build().search('dog cat', 10);
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2']);
    expect(hits[0]!.score).toBeCloseTo(idf(1) * tfPart(2, 3) + idf(2) * tfPart(1, 3), 12);
    // the title is indexed with the text: d2 = "Dog bird", dl 2 → tf part exactly 1
    expect(hits[1]!.score).toBeCloseTo(idf(2), 12);
    expect(hits[0]!.terms.sort()).toEqual(['cat', 'dog']);
  });

  it('counts a repeated query word once', () => {
    const index = build();
    expect(index.search('cat cat cats', 10)).toEqual(index.search('cat', 10));
  });

  it('applies k1, b and d, and the multiplier when asked for', () => {
    const index = build();
    const [plus] = index.search('cat', 1, { k1: 1.2, b: 0.75, d: 0.5, termCountBoost: false });
    expect(plus!.score).toBeCloseTo(idf(1) * (0.5 + tfPart(2, 3, 1.2, 0.75)), 12);
    const boosted = index.search('dog cat', 1, MINISEARCH_BM25)[0]!;
    const expected = 2 * (idf(1) * (0.5 + tfPart(2, 3, 1.2, 0.7)) + idf(2) * (0.5 + tfPart(1, 3, 1.2, 0.7)));
    expect(boosted.score).toBeCloseTo(expected, 12);
  });

  it('returns nothing for an empty or stop-word-only query, and honours k', () => {
    const index = build();
    expect(index.search('', 10)).toEqual([]);
    expect(index.search('the of', 10)).toEqual([]);
    expect(index.search('dog', 1)).toHaveLength(1);
  });

  it('restores from its serialised form with identical results and no re-tokenising', () => {
    const index = build();
    const restored = Bm25Index.restore(structuredClone(index.serialize()));
    expect(restored.documentCount).toBe(3);
    expect(restored.analyzer.options).toEqual(index.analyzer.options);
    for (const q of ['cat', 'dog bird', 'fish dog']) expect(restored.search(q, 10)).toEqual(index.search(q, 10));
    // Still growable: N = 4, avgdl = 7/4; d1 (tf 2, dl 3): 3.8/(2 + 0.9·(0.6 + 0.4·3/1.75)) ≈ 1.2036,
    // d4 (tf 1, dl 1): 1.9/(1 + 0.9·(0.6 + 0.4/1.75)) ≈ 1.0884
    restored.addAll([{ id: 'd4', title: '', text: 'cat' }]);
    const hits = restored.search('cat', 10);
    const idf4 = Math.log(1 + (4 - 2 + 0.5) / 2.5);
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd4']);
    expect(hits[1]!.score).toBeCloseTo((idf4 * 1.9) / (1 + 0.9 * (0.6 + 0.4 / 1.75)), 12);
  });

  it('restores a larger index exactly: same hits, scores, terms and vocabulary', () => {
    const words = 'tide mill wheel harbour lock barge salt ferry crane estuary quay granary'.split(' ');
    const many = Array.from({ length: 300 }, (_, i) => ({
      id: `doc${i}`,
      title: i % 7 === 0 ? 'Harbour' : '',
      text: Array.from({ length: 5 + (i % 13) }, (_, j) => words[(i * 5 + j * j) % words.length]).join(' '),
    }));
    const index = Bm25Index.create();
    index.addAll(many);
    const restored = Bm25Index.restore(structuredClone(index.serialize()));
    for (const q of ['tide wheel', 'harbour', 'salt ferry crane', 'quay granary lock']) {
      expect(restored.search(q, 50)).toEqual(index.search(q, 50));
    }
    expect(restored.termCount).toBe(index.termCount);
    expect(restored.has('doc299')).toBe(true);
  });

  it('uses the analyzer it was built with', () => {
    const index = Bm25Index.create({ stemming: 'none' });
    index.addAll(docs);
    expect(index.search('cats', 10).map((h) => h.id)).toEqual(['d1']);
    expect(index.search('cat', 10)[0]!.score).toBeCloseTo(idf(1) * tfPart(1, 3), 12);
  });

  it('stores its postings packed, and still restores a version 3 record (the searched arrays as they are)', () => {
    const index = build();
    const serialized = index.serialize();
    expect(serialized.version).toBe(4);
    const searched = unpackIndex(serialized.compact);
    const flatDocs = joinDocs(searched.termStarts, searched.postingDocs);
    const flatFreqs = unpackFreqs(searched.postingFreqs, flatDocs.length);
    expect(serialized.compact.postings.byteLength).toBeLessThan(flatDocs.byteLength + flatFreqs.byteLength);
    const { postings: _, ...rest } = serialized.compact;
    const v3 = Bm25Index.restore(structuredClone({ ...serialized, version: 3 as const, compact: { ...rest, postingDocs: flatDocs, postingFreqs: flatFreqs } }));
    for (const q of ['cat', 'dog bird', 'fish dog']) expect(v3.search(q, 10)).toEqual(index.search(q, 10));
    expect(v3.serialize()).toEqual(serialized);
  });

  it('rejects an unknown serialisation version', () => {
    const bad = { ...build().serialize(), version: 9 as 4 };
    expect(() => Bm25Index.restore(bad)).toThrow('Unsupported BM25 index format version 9');
  });
});

describe('validateBm25Params', () => {
  it('accepts the presets and names the bad field', () => {
    expect(validateBm25Params({ ...OKAPI_BM25 })).toEqual(OKAPI_BM25);
    expect(() => validateBm25Params({ ...OKAPI_BM25, b: 1.5 })).toThrow('BM25 parameter b must be a number from 0 to 1, got 1.5');
    expect(() => validateBm25Params({ ...OKAPI_BM25, k1: Number.NaN })).toThrow('BM25 parameter k1');
  });

  it('refuses values that are not finite or would overflow the scores, and values of the wrong type (issue case 7)', () => {
    expect(validateBm25Params({ ...OKAPI_BM25, k1: 1000, d: 1000 })).toMatchObject({ k1: 1000 });
    expect(() => validateBm25Params({ ...OKAPI_BM25, k1: 1e308 })).toThrow('BM25 parameter k1 must be a number from 0 to 1000, got 1e+308');
    expect(() => validateBm25Params({ ...OKAPI_BM25, k1: Infinity })).toThrow('BM25 parameter k1 must be a number from 0 to 1000, got Infinity');
    expect(() => validateBm25Params({ ...OKAPI_BM25, d: 1e300 })).toThrow('BM25 parameter d must be a number from 0 to 1000');
    expect(() => validateBm25Params({ ...OKAPI_BM25, k1: '0.9' as never })).toThrow('BM25 parameter k1 must be a number from 0 to 1000, got "0.9"');
    expect(() => validateBm25Params({ ...OKAPI_BM25, termCountBoost: 'yes' as never })).toThrow('BM25 parameter termCountBoost must be true or false, got "yes"');
  });

  it('keeps every score finite at the largest k1 and d', () => {
    const index = build();
    for (const params of [{ ...OKAPI_BM25, k1: 1000 }, { ...OKAPI_BM25, k1: 1000, b: 1, d: 1000 }]) {
      const hits = index.search('dog cat', 10, params);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(Number.isFinite(hit.score)).toBe(true);
    }
  });
});
