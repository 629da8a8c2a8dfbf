import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../loader/index.ts';
import { memorySource } from '../corpus/fixtures/memory-source.ts';
import { Bm25Index } from '../bm25/index.ts';
import { IndexOnlyCorpusStore } from './index-only-corpus-store.ts';

describe('IndexOnlyCorpusStore', () => {
  it('keeps the index, queries and counts but no document, and fetches documents through its fetcher', async () => {
    const asked: string[][] = [];
    const store = new IndexOnlyCorpusStore(async (ids) => {
      asked.push([...ids]);
      return ids.map((id) => ({ id, title: '', text: `fetched ${id}` }));
    });
    const corpus = ['{"_id":"a","text":"salt marsh"}', '{"_id":"b","text":"harbour salt"}'].join('\n');
    const { corpus: record } = await loadCorpus(
      [memorySource('corpus.jsonl', corpus), memorySource('queries.jsonl', '{"_id":"q","text":"salt"}')],
      { name: 'x' },
      store,
    );
    expect(record.documentCount).toBe(2);
    expect(await store.listDocuments()).toEqual([]);
    expect(await store.getQueries(record.id)).toHaveLength(1);
    const index = Bm25Index.restore((await store.getBm25Index(record.id))!);
    expect(index.search('harbour', 10).map((h) => h.id)).toEqual(['b']);
    expect(await store.getDocuments(record.id, ['b'])).toEqual([{ id: 'b', title: '', text: 'fetched b' }]);
    expect(asked).toEqual([['b']]);
  });
});
