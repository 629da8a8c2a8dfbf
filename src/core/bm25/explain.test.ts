// "Why did this rank here" for BM25: per-term contributions that add up to the score the index's own search gives.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index.ts';
import { MINISEARCH_BM25, OKAPI_BM25, type Bm25Params } from './params.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const lines = (file: string) =>
  fs
    .readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, string>);
const corpus = lines('sample-data/meridian/corpus.jsonl').map((d) => ({ id: d._id!, title: d.title ?? '', text: d.text ?? '' }));
const queries = lines('sample-data/meridian/queries.jsonl').map((q) => q.text!);

const PARAMS: Array<[string, Bm25Params]> = [
  ['okapi', OKAPI_BM25],
  ['minisearch (BM25+, term-count boost)', MINISEARCH_BM25],
  ['no length normalisation', { k1: 1.2, b: 0, d: 0, termCountBoost: false }],
];

describe('Bm25Index.explain', () => {
  const index = Bm25Index.create();
  index.addAll(corpus);

  it.each(PARAMS)('contributions sum to the score search gives every hit (%s)', (_, params) => {
    let checked = 0;
    for (const query of queries) {
      for (const hit of index.search(query, 10, params)) {
        const why = index.explain(query, hit.id, params)!;
        const summed = why.terms.reduce((s, t) => s + t.contribution, 0);
        const score = params.termCountBoost ? summed * why.matchedTerms : summed;
        expect(Math.abs(score - hit.score)).toBeLessThan(1e-9);
        expect(why.score).toBe(hit.score); // same expressions in the same order: the same bits
        // The terms with tf > 0 are the ones search reports as matched (its list puts number-like terms first).
        expect(why.terms.filter((t) => t.termFrequency > 0).map((t) => t.term).sort()).toEqual([...hit.terms].sort());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(400);
  });

  it('each contribution is the Okapi formula over the idf, tf, dl and avgdl it reports', () => {
    const params: Bm25Params = { k1: 0.9, b: 0.4, d: 0, termCountBoost: false };
    const query = queries[0]!;
    const [hit] = index.search(query, 1, params);
    const why = index.explain(query, hit!.id, params)!;
    const doc = corpus.find((d) => d.id === hit!.id)!;
    const docTerms = index.analyzer.terms(`${doc.title}\n${doc.text}`);
    expect(why.documentLength).toBe(docTerms.length);
    expect(why.documentCount).toBe(corpus.length);
    const avg = corpus.reduce((s, d) => s + index.analyzer.terms(d.title ? `${d.title}\n${d.text}` : d.text).length, 0) / corpus.length;
    expect(why.averageLength).toBeCloseTo(avg, 9);
    for (const t of why.terms) {
      const df = corpus.filter((d) => index.analyzer.terms(`${d.title}\n${d.text}`).includes(t.term)).length;
      expect(t.documentFrequency).toBe(df);
      expect(t.idf).toBeCloseTo(Math.log(1 + (corpus.length - df + 0.5) / (df + 0.5)), 12);
      expect(t.termFrequency).toBe(docTerms.filter((x) => x === t.term).length);
      const norm = params.k1 * (1 - params.b + (params.b * why.documentLength) / why.averageLength);
      const expected = t.termFrequency === 0 ? 0 : (t.idf * (t.termFrequency * (params.k1 + 1))) / (t.termFrequency + norm);
      expect(t.contribution).toBeCloseTo(expected, 12);
    }
    expect(why.terms.some((t) => t.termFrequency === 0) || why.terms.every((t) => t.termFrequency > 0)).toBe(true);
  });

  it('lists query terms no document holds, scores a document outside the top k, and knows no unindexed id', () => {
    const query = `${queries[1]} zzyzxnotaword`;
    const why = index.explain(query, corpus[5]!.id)!;
    expect(why.unknownTerms).toEqual(['zzyzxnotaword']);
    const all = index.search(query, corpus.length);
    const listed = all.find((h) => h.id === corpus[5]!.id);
    expect(why.score).toBe(listed ? listed.score : 0);
    expect(index.explain(query, 'no-such-document')).toBeNull();
  });
});
