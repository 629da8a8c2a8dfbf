import { describe, expect, it } from 'vitest';
import { memorySource } from '../corpus/fixtures/memory-source.ts';
import { loadCorpus } from '../loader/index.ts';
import { MemoryRunStore } from '../runs/index.ts';
import { MemoryCorpusStore } from '../storage/index.ts';
import { runQuerySet } from './run-query-set.ts';
import { OKAPI_BM25 } from '../bm25/index.ts';

const corpus = [
  { _id: 'd1', title: 'Harbour', text: 'The harbour crane lifts timber.' },
  { _id: 'd2', title: 'Ferry', text: 'Ferries cross the estuary.' },
  { _id: 'd3', title: 'Lock', text: 'The lock keeper opens the gates.' },
]
  .map((d) => JSON.stringify(d))
  .join('\n');

async function loaded() {
  const store = new MemoryCorpusStore();
  const { corpus: record, index } = await loadCorpus(
    [
      memorySource('corpus.jsonl', corpus, { path: 'set/corpus.jsonl' }),
      memorySource('queries.jsonl', '{"_id": "q1", "text": "crane timber"}\n{"_id": "q2", "text": "gates"}\n', { path: 'set/queries.jsonl' }),
      memorySource('test.tsv', 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n', { path: 'set/qrels/test.tsv' }),
    ],
    { name: 'Set' },
    store,
  );
  return { store, record, resources: { bm25Index: async () => index } };
}

const spec = { kind: 'bm25', params: OKAPI_BM25 } as const;

describe('runQuerySet', () => {
  it('runs every stored query, scores against the qrels and saves the run', async () => {
    const { store, record, resources } = await loaded();
    const runs = new MemoryRunStore();
    const progress: number[] = [];
    const { record: run, run: map } = await runQuerySet(
      { corpusId: record.id, spec, k: 5, name: ' BM25 run ', measures: ['P@1'] },
      { corpora: store, resources, runs },
      { onProgress: (done) => progress.push(done) },
    );
    expect(progress).toEqual([1, 2]);
    expect(run).toMatchObject({ name: 'BM25 run', corpusId: record.id, corpusName: 'Set', k: 5, pipeline: spec, measures: ['P@1'] });
    expect(run.rankings.map((r) => r.queryId)).toEqual(['q1', 'q2']);
    expect(map.get('q1')?.[0]?.id).toBe('d1');
    // q1 finds its relevant document first, q2's relevant document does not hold "gates".
    expect(run.metrics?.aggregate['P@1']).toBe(0.5);
    expect(run.config).toHaveProperty('k1');
    expect((await runs.getRun(run.id))?.rankings).toEqual(run.rankings);
  });

  it('saves nothing when cancelled', async () => {
    const { store, record, resources } = await loaded();
    const runs = new MemoryRunStore();
    const controller = new AbortController();
    const run = runQuerySet({ corpusId: record.id, spec, k: 5, name: 'r' }, { corpora: store, resources, runs }, {
      signal: controller.signal,
      onProgress: () => controller.abort(new DOMException('cancelled', 'AbortError')),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(await runs.listRuns(record.id)).toEqual([]);
  });

  it('says so when the corpus is gone', async () => {
    const { store, record, resources } = await loaded();
    await store.deleteCorpus(record.id);
    await expect(runQuerySet({ corpusId: record.id, spec, k: 5, name: 'r' }, { corpora: store, resources })).rejects.toThrow(/no longer stored/);
  });
});
