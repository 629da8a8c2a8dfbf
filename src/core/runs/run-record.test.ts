import { describe, expect, it } from 'vitest';
import { buildQrelsMap } from '../eval/index.ts';
import { buildRunRecord, rescoreRunRecord, runMapOfRecord, summarizeRun } from './run-record.ts';
import { WORKBENCH_VERSION } from './workbench-version.ts';

const qrels = buildQrelsMap([
  { queryId: 'q1', docId: 'd1', relevance: 1 },
  { queryId: 'q1', docId: 'd3', relevance: 1 },
  { queryId: 'q2', docId: 'd2', relevance: 2 },
  { queryId: 'q3', docId: 'd1', relevance: 0 },
]);

const bm25 = { kind: 'bm25' as const, params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } };

function build(extra: Partial<Parameters<typeof buildRunRecord>[0]> = {}) {
  return buildRunRecord({
    name: ' BM25 baseline ',
    corpusId: 'c1',
    corpusName: 'Sample',
    pipeline: bm25,
    config: { k1: 0.9, b: 0.4 },
    run: new Map([
      ['q1', [{ id: 'd1', score: 3 }, { id: 'd2', score: 2 }, { id: 'd3', score: 1 }]],
      // Given out of order: stored best first.
      ['q2', [{ id: 'd2', score: 4 }, { id: 'd4', score: 5 }]],
    ]),
    qrels,
    measures: ['AP', 'RR@10', 'P@2'],
    createdAt: 123,
    ...extra,
  });
}

describe('buildRunRecord', () => {
  it('scores the rankings with trec_eval definitions over the judged queries', () => {
    const record = build();
    // q1: relevant at ranks 1 and 3 → AP (1 + 2/3)/2 = 5/6, RR 1, P@2 1/2.
    // q2: relevant at rank 2 → AP 1/2, RR 1/2, P@2 1/2. q3 has no relevant judgement and is not evaluated.
    expect(record.metrics!.queryCount).toBe(2);
    expect(record.metrics!.perQuery.q1!.AP).toBeCloseTo(5 / 6, 12);
    expect(record.metrics!.perQuery.q2).toEqual({ AP: 0.5, 'RR@10': 0.5, 'P@2': 0.5 });
    expect(record.metrics!.aggregate.AP).toBeCloseTo(2 / 3, 12);
    expect(record.metrics!.aggregate['RR@10']).toBe(0.75);
    expect(record.metrics!.aggregate['P@2']).toBe(0.5);
    expect(record.measures).toEqual(['AP', 'RR@10', 'P@2']);
  });

  it('keeps each ranking best first, the configuration, the versions and a trimmed name', () => {
    const record = build({ models: { 'bge-small': 'rev-1' } });
    expect(record.rankings).toEqual([
      { queryId: 'q1', docIds: ['d1', 'd2', 'd3'], scores: [3, 2, 1] },
      { queryId: 'q2', docIds: ['d4', 'd2'], scores: [5, 4] },
    ]);
    expect(record.name).toBe('BM25 baseline');
    expect(record.k).toBe(3);
    expect(record.createdAt).toBe(123);
    expect(record.versions).toEqual({ workbench: WORKBENCH_VERSION, models: { 'bge-small': 'rev-1' } });
    expect(WORKBENCH_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(record.pipeline).toEqual(bm25);
    expect(record.id).toMatch(/^r-/);
    expect(build().id).not.toBe(record.id);
  });

  it('stores no metrics when the corpus has no relevant judgement', () => {
    expect(build({ qrels: null }).metrics).toBeNull();
    expect(build({ qrels: buildQrelsMap([{ queryId: 'q1', docId: 'd1', relevance: 0 }]) }).metrics).toBeNull();
  });

  it('drops credential keys from the configuration, at any depth', () => {
    const record = build({ config: { model: 'm', apiKey: 'sk-1', llm: { endpoint: 'x', api_key: 'sk-2', Authorization: 'Bearer y' } } });
    expect(record.config).toEqual({ model: 'm', llm: { endpoint: 'x' } });
    expect(JSON.stringify(record)).not.toContain('sk-');
  });

  it('refuses an empty name, a bad k and non-finite scores', () => {
    expect(() => build({ name: '  ' })).toThrow('A run name cannot be empty');
    expect(() => build({ k: 0 })).toThrow('k must be a positive integer');
    expect(() => build({ run: new Map([['q1', [{ id: 'd1', score: Number.NaN }]]]) })).toThrow("Document 'd1' of query 'q1' has a non-finite score");
  });

  it('round-trips to a RunMap, rescores with other measures, and summarises without rankings', () => {
    const record = build();
    expect(runMapOfRecord(record).get('q2')).toEqual([{ id: 'd4', score: 5 }, { id: 'd2', score: 4 }]);
    const rescored = rescoreRunRecord(record, qrels, ['P@1']);
    expect(rescored.measures).toEqual(['P@1']);
    expect(rescored.metrics!.aggregate).toEqual({ 'P@1': 0.5 });
    const summary = summarizeRun(record);
    expect(summary).not.toHaveProperty('rankings');
    expect(summary.rankedQueryCount).toBe(2);
  });
});
