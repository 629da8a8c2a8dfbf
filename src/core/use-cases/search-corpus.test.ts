import { describe, expect, it } from 'vitest';
import { storeCorpus } from '../../test-support/stored-corpus.ts';
import { Bm25Index, MiniSearchBm25 } from '../bm25/index.ts';
import type { CorpusDocument } from '../corpus/index.ts';
import type { RetrievalResources, PipelineSpec } from '../retrieval/index.ts';
import { MemoryCorpusStore } from '../storage/index.ts';
import { searchCorpus } from './search-corpus.ts';

const docs: CorpusDocument[] = [
  { id: 'd1', title: 'Harbours', text: 'The ferry leaves the harbour at dawn.' },
  { id: 'd2', title: '', text: 'Salt is loaded on the quay; ferries wait.' },
  { id: 'd3', title: 'Mountains', text: 'No water here at all.' },
];
const bm25: PipelineSpec = { kind: 'bm25', params: { k1: 0.9, b: 0.4 } } as PipelineSpec;

function resources(index: Bm25Index): RetrievalResources {
  return { bm25Index: async () => index };
}

async function setUp() {
  const corpora = new MemoryCorpusStore();
  await storeCorpus(corpora, 'c', docs);
  return corpora;
}

describe('searchCorpus', () => {
  it.each([
    ['the compact index', () => {
      const index = Bm25Index.create();
      index.addAll(docs);
      return index;
    }],
    ['an index restored from a stored MiniSearch snapshot', () => {
      const reference = MiniSearchBm25.create();
      reference.addAll(docs);
      return Bm25Index.restore(structuredClone(reference.serialize()));
    }],
  ])('passes the matched terms of %s through to the hits, with the documents', async (_, makeIndex) => {
    const index = makeIndex();
    const corpora = await setUp();
    // The analyzer must not be asked to tokenise documents for highlighting: only the query is analysed.
    const terms = index.analyzer.terms.bind(index.analyzer);
    const tokenised: string[] = [];
    index.analyzer.terms = (text: string) => {
      tokenised.push(text);
      return terms(text);
    };
    const result = await searchCorpus({ corpusId: 'c', spec: bm25, query: 'ferry harbour salt', k: 10 }, { corpora, resources: resources(index) });
    expect(tokenised.filter((text) => text !== 'ferry harbour salt')).toEqual([]);
    const scorer = index.search('ferry harbour salt', 10, { k1: 0.9, b: 0.4, d: 0 } as never);
    expect(result.hits.map((h) => [h.id, h.terms])).toEqual(scorer.map((h) => [h.id, h.terms]));
    const queryTerms = terms('ferry harbour salt');
    expect(result.hits.find((h) => h.id === 'd1')!.terms.length).toBe(2); // ferry, harbour
    expect(result.hits.flatMap((h) => h.terms).every((t) => queryTerms.includes(t))).toBe(true);
    expect(result.hits.every((h) => h.terms.length > 0)).toBe(true);
    expect(result.hits[0]!.document).toEqual(docs.find((d) => d.id === result.hits[0]!.id));
    expect(result.config).toMatchObject({ k1: 0.9, b: 0.4 });
  });

  it('a fusion keeps the terms its BM25 child matched', async () => {
    const index = Bm25Index.create();
    index.addAll(docs);
    const corpora = await setUp();
    const spec = { kind: 'rrf', k: 60, fetchKMultiplier: 2, pipelines: [bm25, { kind: 'bm25', params: { k1: 1.2, b: 0.75 } }] } as PipelineSpec;
    const result = await searchCorpus({ corpusId: 'c', spec, query: 'salt quay', k: 5 }, { corpora, resources: resources(index) });
    const scorer = new Map(index.search('salt quay', 10).map((h) => [h.id, h.terms]));
    expect(result.hits.length).toBeGreaterThan(0);
    for (const hit of result.hits) expect(hit.terms).toEqual(scorer.get(hit.id));
  });
});
