// The compact index must score exactly as the MiniSearch index it replaced: same ids, same order (ties
// included), scores within 1e-9, same matched terms, for every parameter set.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../eval/index.ts';
import { Bm25Index, type Bm25Hit } from './bm25-index.ts';
import { MiniSearchBm25 } from './minisearch-bm25.ts';
import { MINISEARCH_BM25, OKAPI_BM25, type Bm25Params } from './params.ts';

interface Doc {
  id: string;
  title: string;
  text: string;
}

function readJsonl(file: string): Array<Record<string, string>> {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, string>);
}

const root = path.resolve(import.meta.dirname, '../../..');
const meridian: Doc[] = readJsonl(path.join(root, 'sample-data/meridian/corpus.jsonl')).map((d) => ({
  id: d._id!,
  title: d.title ?? '',
  text: d.text ?? '',
}));
const meridianQueries = readJsonl(path.join(root, 'sample-data/meridian/queries.jsonl')).map((q) => q.text!);

const PARAMS: Array<[string, Bm25Params]> = [
  ['okapi', OKAPI_BM25],
  ['minisearch', MINISEARCH_BM25],
  ['bm25+ without boost', { k1: 1.5, b: 1, d: 0.25, termCountBoost: false }],
  ['no length normalisation', { k1: 0.3, b: 0, d: 0, termCountBoost: false }],
];

function expectSame(actual: Bm25Hit[], expected: Bm25Hit[]): void {
  expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
  actual.forEach((hit, i) => {
    expect(Math.abs(hit.score - expected[i]!.score)).toBeLessThanOrEqual(1e-9);
    expect(hit.terms).toEqual(expected[i]!.terms);
  });
}

/** Queries of 1–12 words drawn from the corpus itself, stop words included. */
function sampledQueries(docs: Doc[], count: number, seed: number): string[] {
  const words = docs.flatMap((d) => `${d.title} ${d.text}`.split(/\s+/)).filter(Boolean);
  const next = mulberry32(seed);
  const below = (n: number) => next() % n;
  return Array.from({ length: count }, () => Array.from({ length: 1 + below(12) }, () => words[below(words.length)]).join(' '));
}

function compareOn(docs: Doc[], queries: string[], ks: number[]): void {
  const reference = MiniSearchBm25.create();
  reference.addAll(docs);
  const compact = Bm25Index.create();
  compact.addAll(docs);
  expect(compact.termCount).toBe(reference.termCount);
  // The last run takes the corpus in blocks of 16 documents, so that term-at-a-time scoring crosses many blocks.
  for (const [strategy, block] of [['maxscore', 0], ['exhaustive', 0], ['auto', 0], ['exhaustive', 16]] as const) {
    compact.strategy = strategy;
    if (block) compact.accumulatorBlock = block;
    for (const [, params] of PARAMS) {
      for (const query of queries) {
        for (const k of ks) expectSame(compact.search(query, k, params), reference.search(query, k, params));
      }
    }
  }
}

describe('Bm25Index against the MiniSearch index it replaced', () => {
  it('gives identical results on the sample corpus (its queries and sampled ones, every parameter set, both top-k strategies)', () => {
    compareOn(meridian, [...meridianQueries, ...sampledQueries(meridian, 20, 7)], [1, 10, 1000]);
  }, 180_000);

  it('gives identical results on the mini BEIR fixture', () => {
    const dir = path.join(root, 'src/core/corpus/fixtures/mini-beir');
    const docs = readJsonl(path.join(dir, 'corpus.jsonl')).map((d) => ({ id: d._id!, title: d.title ?? '', text: d.text ?? '' }));
    const queries = readJsonl(path.join(dir, 'queries.jsonl')).map((q) => q.text!);
    compareOn(docs, [...queries, ...sampledQueries(docs, 20, 3)], [1, 3, 10]);
  });

  it('orders equal scores as MiniSearch does, also when pruning cuts the list at k', () => {
    // Many documents share scores exactly: repeated texts, and texts matching different query words equally.
    const texts = ['salt harbour', 'harbour salt', 'ferry', 'salt', 'harbour', 'ferry salt harbour', 'quay'];
    const docs = Array.from({ length: 400 }, (_, i) => ({ id: `t${(i * 37) % 400}`, title: '', text: texts[(i * 7) % texts.length]! }));
    compareOn(docs, ['salt harbour', 'harbour ferry salt', 'quay salt', 'ferry', 'harbour quay ferry salt'], [1, 5, 10, 50, 1000]);
  }, 180_000);

  it('restores format version 2 (a stored MiniSearch snapshot) with identical results', () => {
    const reference = MiniSearchBm25.create();
    reference.addAll(meridian);
    const restored = Bm25Index.restore(structuredClone(reference.serialize()));
    expect(restored.documentCount).toBe(meridian.length);
    for (const query of meridianQueries) {
      expectSame(restored.search(query, 10), reference.search(query, 10));
      expectSame(restored.search(query, 10, MINISEARCH_BM25), reference.search(query, 10, MINISEARCH_BM25));
    }
  });

  it('searches a restored index without rebuilding it, and grows it when documents are added', () => {
    const half = meridian.length >> 1;
    const first = Bm25Index.create();
    first.addAll(meridian.slice(0, half));
    const grown = Bm25Index.restore(structuredClone(first.serialize()));
    grown.addAll(meridian.slice(half));
    const reference = MiniSearchBm25.create();
    reference.addAll(meridian);
    for (const query of meridianQueries) expectSame(grown.search(query, 20), reference.search(query, 20));
    expect(() => grown.addAll([meridian[0]!])).toThrow(`Duplicate document id ${meridian[0]!.id}`);
  });
});
