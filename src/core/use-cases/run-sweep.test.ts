import { describe, expect, it } from 'vitest';
import { corpusRecord } from '../../test-support/stored-corpus.ts';
import { OKAPI_BM25, Bm25Index } from '../bm25/index.ts';
import { GqrRetriever, type GqrPipelineSpec, type Retriever } from '../retrieval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import { MemoryRunStore, labSweepsFromRuns } from '../runs/index.ts';
import { MemoryCorpusStore } from '../storage/index.ts';
import { sweepQueries, testBestPoint } from '../sweep/index.ts';
import { runSweep, type SweepDeps } from './run-sweep.ts';

const doc = (id: string, score: number): ScoredDoc => ({ id, score });
const fixed = (lists: Record<string, ScoredDoc[]>): Retriever => ({ pipeline: 'fixed', config: {}, search: async (text, k) => (lists[text] ?? []).slice(0, k) });
const queries = [
  { id: 'q1', text: 'first' },
  { id: 'q2', text: 'second' },
];
const gqr = new GqrRetriever({
  primary: fixed({ first: [doc('a', 0.9), doc('b', 0.8), doc('c', 0.1)], second: [doc('x', 0.7), doc('y', 0.6)] }),
  complementary: fixed({ first: [doc('c', 5), doc('a', 1)], second: [doc('y', 3), doc('z', 2)] }),
});
const spec: GqrPipelineSpec = {
  kind: 'gqr',
  primary: { kind: 'dense', modelKey: 'm' },
  complementary: { kind: 'bm25', params: { ...OKAPI_BM25 } },
  config: { ...gqr.gqr, nSteps: 50, learningRate: 1 },
};

async function corpus(withQrels: boolean) {
  const store = new MemoryCorpusStore();
  await store.beginCorpus(corpusRecord('c1', { name: 'Corpus' }));
  const qrels = withQrels ? [{ queryId: 'q1', docId: 'c', relevance: 1 }, { queryId: 'q2', docId: 'y', relevance: 1 }] : [];
  await store.putBatch('c1', { documents: [{ id: 'a', title: '', text: 'a' }], queries, qrels });
  await store.commitCorpus('c1', { index: Bm25Index.create().serialize(), documentCount: 1, queryCount: 2, qrelCount: qrels.length, questionCount: 0, issues: [], issueCount: 0 });
  return store;
}

const compute: SweepDeps['compute'] = async (job, onProgress, signal) => ({ runs: await sweepQueries(gqr, queries, job, onProgress, signal), config: gqr.config });
const request = { corpusId: 'c1', name: 'Alpha', spec, axes: [{ key: 'mixtureAlpha' as const, values: [0, 1] }], topK: 2, measures: ['RR@10'] };

describe('runSweep (use case)', () => {
  it('saves one run per grid point and baseline, which rebuild into the same sweep', async () => {
    const runs = new MemoryRunStore();
    const phases = new Set<string>();
    const { sweep, records } = await runSweep(request, { corpora: await corpus(true), runs, compute }, { onProgress: (p) => phases.add(`${p.phase}:${p.points}`) });
    expect([...phases]).toEqual(['prepare:2', 'rerank:2', 'save:2']);
    expect(records).toHaveLength(2 + 4);
    expect(sweep).toMatchObject({ name: 'Alpha', corpusId: 'c1', corpusName: 'Corpus', queryCount: 2, topK: 2 });
    const saved = await runs.listRuns('c1');
    expect(saved.map((r) => r.id).sort()).toEqual(records.map((r) => r.id).sort());
    const [rebuilt] = labSweepsFromRuns(saved);
    expect(rebuilt!.id).toBe(sweep.id);
    expect(rebuilt!.runIds).toEqual(sweep.runIds);
    expect(rebuilt!.evaluation.points).toEqual(sweep.evaluation.points);
    // the saved CC run (best on the first measure) keeps its per-query values, so the best point is tested the same
    expect(testBestPoint(rebuilt!.evaluation, 'RR@10')).toEqual(testBestPoint(sweep.evaluation, 'RR@10'));
    expect(testBestPoint(rebuilt!.evaluation, 'RR@10')!.comparisons.map((c) => c.baseline)).toEqual(['rrf', 'cc']);
  });

  it('saves nothing for a corpus without qrels, and says why', async () => {
    const runs = new MemoryRunStore();
    await expect(runSweep(request, { corpora: await corpus(false), runs, compute })).rejects.toThrow('“Corpus” has no relevance judgements (qrels), so the sweep cannot be scored.');
    expect(await runs.listRuns('c1')).toEqual([]);
  });

  it('rejects a bad grid before computing anything', async () => {
    let computed = false;
    const deps = { corpora: await corpus(true), compute: async () => ((computed = true), { runs: null as never, config: {} }) };
    await expect(runSweep({ ...request, axes: [{ key: 'mixtureAlpha', values: [2] }] }, deps)).rejects.toThrow(/mixture_alpha must be between 0 and 1/);
    expect(computed).toBe(false);
  });
});
