import { describe, expect, it } from 'vitest';
import { memorySource } from '../corpus/fixtures/memory-source.ts';
import { MemoryCorpusStore, type CorpusStore } from '../storage/index.ts';
import { DuplicateCorpusError, loadCorpus, type LoadProgress } from './load-corpus.ts';

const corpus = [
  { _id: 'd1', title: 'Harbour', text: 'The harbour crane lifts timber.' },
  { _id: 'd2', title: 'Ferry', text: 'Ferries cross the estuary.' },
  { _id: 'd3', title: 'Lock', text: 'The lock keeper opens the gates.' },
]
  .map((d) => JSON.stringify(d))
  .join('\n');
const queries = '{"_id": "q1", "text": "crane timber"}\n{"_id": "q2", "text": "who opens the gates", "answers": ["lock keeper"]}\n';
const qrels = 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t1\n';

function beirSources() {
  return [
    memorySource('corpus.jsonl', corpus, { path: 'set/corpus.jsonl', chunkSize: 11 }),
    memorySource('queries.jsonl', queries, { path: 'set/queries.jsonl' }),
    memorySource('test.tsv', qrels, { path: 'set/qrels/test.tsv' }),
  ];
}

describe('loadCorpus', () => {
  it('stores documents, queries and qrels, builds the index and commits a ready corpus', async () => {
    const store = new MemoryCorpusStore();
    const progress: LoadProgress[] = [];
    const { corpus: record, summary, index } = await loadCorpus(beirSources(), { name: 'Set', batchSize: 2 }, store, (p) => progress.push(p));
    expect(record).toMatchObject({ name: 'Set', status: 'ready', documentCount: 3, queryCount: 2, qrelCount: 2, questionCount: 1, issueCount: 0 });
    expect(summary.documents).toBe(3);
    expect((await store.listCorpora()).map((c) => c.id)).toEqual([record.id]);
    expect(await store.getQrels(record.id)).toHaveLength(2);
    expect(index.search('gates', 5).map((h) => h.id)).toEqual(['d3']);
    const stored = await store.getBm25Index(record.id);
    expect(stored?.documentCount).toBe(3);
    expect(progress.at(-1)?.phase).toBe('saving');
    expect(progress.some((p) => p.phase === 'reading')).toBe(true);
  });

  it('refuses the same documents again when asked to, naming the stored corpus and keeping nothing; a copy loads', async () => {
    const store = new MemoryCorpusStore();
    const { corpus: first } = await loadCorpus(beirSources(), { name: 'Set', refuseDuplicates: true }, store);
    const again = loadCorpus(beirSources(), { name: 'Set', refuseDuplicates: true }, store);
    await expect(again).rejects.toBeInstanceOf(DuplicateCorpusError);
    await expect(again).rejects.toMatchObject({ existing: { id: first.id, name: 'Set' }, message: expect.stringContaining('already loaded as “Set”') });
    expect((await store.listCorpora()).map((c) => c.id)).toEqual([first.id]);
    expect(await store.listIncomplete()).toEqual([]);
    // Other documents are not a duplicate; the same ones load as a copy when not refused.
    const other = [memorySource('corpus.jsonl', '{"_id": "d9", "text": "another text"}', { path: 'o/corpus.jsonl' })];
    await loadCorpus(other, { name: 'Other', refuseDuplicates: true }, store);
    const { corpus: copy } = await loadCorpus(beirSources(), { name: 'Set (copy)' }, store);
    expect(copy.checksum).toBe(first.checksum);
    expect(await store.listCorpora()).toHaveLength(3);
  });

  it('keeps the good lines of a bad file and records the problems on the corpus', async () => {
    const store = new MemoryCorpusStore();
    const bad = '{"_id": "a", "text": "good"}\n{not json\n{"_id": "a", "text": "duplicate"}\n';
    const { corpus: record } = await loadCorpus([memorySource('docs.jsonl', bad)], { name: 'Bad' }, store);
    expect(record.documentCount).toBe(1);
    expect(record.issueCount).toBe(2);
    expect(record.issues.map((i) => i.line)).toEqual([2, 3]);
    expect((await store.getCorpus(record.id))!.issues).toHaveLength(2);
  });

  it('removes everything of the new corpus when cancelled, leaving other corpora intact', async () => {
    const store = new MemoryCorpusStore();
    const { corpus: kept } = await loadCorpus(beirSources(), { name: 'Kept' }, store);
    const controller = new AbortController();
    const many = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ _id: `x${i}`, text: `text ${i}` })).join('\n');
    const loading = loadCorpus([memorySource('big.jsonl', many, { chunkSize: 64 })], { name: 'Big', batchSize: 50 }, store, (p) => {
      if (p.documents >= 100) controller.abort();
    }, controller.signal);
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
    expect((await store.listCorpora()).map((c) => c.id)).toEqual([kept.id]);
    expect(await store.listIncomplete()).toEqual([]);
    expect(await store.getDocuments(kept.id, ['d1'])).toHaveLength(1);
  });

  it('removes the partial corpus when a storage write fails and passes the error on', async () => {
    const store = new MemoryCorpusStore();
    let batches = 0;
    const failing: CorpusStore = Object.create(store);
    failing.putBatch = async (id, batch) => {
      if (++batches === 2) throw new Error('disk full');
      return store.putBatch(id, batch);
    };
    await expect(loadCorpus(beirSources(), { name: 'Fails', batchSize: 1 }, failing)).rejects.toThrow('disk full');
    expect(await store.listIncomplete()).toEqual([]);
    expect(await store.listCorpora()).toEqual([]);
  });

  it('lets a write still in flight end before it deletes a cancelled corpus', async () => {
    // The store writes in another thread, so a batch's write can still be running when the load is cancelled. A write
    // that ended after the delete would leave rows of a corpus that no longer exists.
    const store = new MemoryCorpusStore();
    const controller = new AbortController();
    const events: string[] = [];
    const slow: CorpusStore = Object.create(store);
    slow.putBatch = async (id, batch) => {
      controller.abort(); // cancelled while this write runs
      await new Promise((resolve) => setTimeout(resolve, 100));
      events.push('write');
      return store.putBatch(id, batch);
    };
    slow.deleteCorpus = async (id) => {
      events.push('delete');
      return store.deleteCorpus(id);
    };
    const many = Array.from({ length: 400 }, (_, i) => JSON.stringify({ _id: `x${i}`, text: `text ${i}` })).join('\n');
    const loading = loadCorpus([memorySource('big.jsonl', many)], { name: 'Big', batchSize: 50 }, slow, undefined, controller.signal);
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual(['write', 'delete']);
    expect(await store.listCorpora()).toEqual([]);
  });

  it('refuses files without any document, saying why', async () => {
    const store = new MemoryCorpusStore();
    await expect(loadCorpus([memorySource('docs.jsonl', '{"_id": "a", "text": ""}\n')], { name: 'Empty' }, store)).rejects.toThrow(
      'No document could be loaded',
    );
    expect(await store.listIncomplete()).toEqual([]);
  });
});
