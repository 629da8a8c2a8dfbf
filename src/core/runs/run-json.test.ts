import { describe, expect, it } from 'vitest';
import { buildQrelsMap } from '../eval/index.ts';
import { exportRunJson, parseRunJson, RUN_JSON_FORMAT } from './run-json.ts';
import { buildRunRecord, type RunRecord } from './run-record.ts';

const record = buildRunRecord({
  id: 'r-1',
  name: 'BM25, "tuned"',
  corpusId: 'c1',
  corpusName: 'Sample',
  pipeline: { kind: 'bm25', params: { k1: 1.2, b: 0.75, d: 0, termCountBoost: false } },
  config: { k1: 1.2, b: 0.75, analyzer: { lowercase: true, stopWords: 'english', stemming: 'porter' } },
  run: new Map([
    ['q1', [{ id: 'd1', score: 0.1 + 0.2 }, { id: 'd2', score: -1e-300 }]],
    ['q2', []],
  ]),
  k: 100,
  qrels: buildQrelsMap([{ queryId: 'q1', docId: 'd2', relevance: 1 }]),
  measures: ['nDCG@10', 'RR'],
  createdAt: 1_700_000_000_000,
  elapsedMs: 42.5,
  models: { 'tiny-bert': 'v1' },
  notes: 'line 1\nline 2',
});

/** The export of `record` as an object, to be changed and written back. */
function exported(): { format: string; formatVersion: number; run: Record<string, unknown> } {
  return JSON.parse(exportRunJson(record));
}

function parseChanged(change: (file: ReturnType<typeof exported>) => void): RunRecord {
  const file = exported();
  change(file);
  return parseRunJson(JSON.stringify(file));
}

describe('run JSON files', () => {
  it('round-trips a run exactly (full-precision scores, metrics, versions, notes)', () => {
    const text = exportRunJson(record, new Date('2024-01-02T03:04:05Z'));
    expect(parseRunJson(text)).toEqual(record);
    const file = JSON.parse(text);
    expect(file.format).toBe(RUN_JSON_FORMAT);
    expect(file.formatVersion).toBe(1);
    expect(file.exportedAt).toBe('2024-01-02T03:04:05.000Z');
    // One line per query's ranking.
    expect(text).toContain('      {"queryId":"q1","docIds":["d1","d2"],"scores":[0.30000000000000004,-1e-300]}');
  });

  it('round-trips the runtime versions, and rejects a runtime version that is not text', () => {
    const withRuntime: RunRecord = { ...record, versions: { ...record.versions, runtime: { 'transformers.js': '4.3.2', 'onnxruntime-web': '1.31.0', browser: 'Chrome/156' } } };
    expect(parseRunJson(exportRunJson(withRuntime)).versions).toEqual(withRuntime.versions);
    const file = JSON.parse(exportRunJson(withRuntime));
    file.run.versions.runtime.browser = 156;
    expect(() => parseRunJson(JSON.stringify(file))).toThrow('run.versions.runtime.browser');
  });

  it('round-trips an imported run’s mark, and names a bad one', () => {
    const imported: RunRecord = { ...record, imported: { fileName: 'a.json', at: 1_700_000_000_000, originalId: 'r-old' } };
    expect(parseRunJson(exportRunJson(imported))).toEqual(imported);
    const file = JSON.parse(exportRunJson(imported));
    file.run.imported.at = 'yesterday';
    expect(() => parseRunJson(JSON.stringify(file))).toThrow('Field "run.imported.at" must be a finite number');
  });

  it('writes only run fields, never credentials', () => {
    const leaky = { ...record, config: { ...record.config, apiKey: 'sk-secret' }, settings: { key: 'sk-other' } } as RunRecord;
    const text = exportRunJson(leaky);
    expect(text).not.toContain('sk-');
    expect(Object.keys(JSON.parse(text).run)).toEqual([
      'id', 'name', 'corpusId', 'corpusName', 'pipeline', 'config', 'createdAt', 'versions', 'k', 'measures', 'metrics',
      'elapsedMs', 'notes', 'rankings',
    ]);
    const file = exported();
    (file.run.config as Record<string, unknown>).password = 'hunter2';
    expect(parseRunJson(JSON.stringify(file)).config).not.toHaveProperty('password');
  });

  it('names the field at fault', () => {
    expect(() => parseRunJson('{"format": ')).toThrow(/^This is not a JSON file/);
    expect(() => parseRunJson('[1]')).toThrow('The file does not hold a JSON object');
    expect(() => parseChanged((f) => (f.format = 'other'))).toThrow('field "format" must be "deep-search-workbench/run"');
    expect(() => parseChanged((f) => (f.formatVersion = 2))).toThrow('format version 2; this workbench reads up to version 1');
    expect(() => parseChanged((f) => delete f.run.name)).toThrow('Field "run.name" must be non-empty text');
    expect(() => parseChanged((f) => (f.run.k = 0))).toThrow('Field "run.k" must be a positive whole number');
    expect(() => parseChanged((f) => (f.run.pipeline = { kind: 'bm25', params: { k1: 'x', b: 0, d: 0, termCountBoost: false } }))).toThrow(
      'Field "run.pipeline.params.k1" must be a finite number',
    );
    expect(() => parseChanged((f) => ((f.run.rankings as { scores: unknown[] }[])[0]!.scores[1] = 'high'))).toThrow(
      'Field "run.rankings[0].scores[1]" must be a finite number',
    );
    expect(() => parseChanged((f) => (f.run.rankings as { scores: unknown[] }[])[0]!.scores.pop())).toThrow(
      'Field "run.rankings[0].scores" has 1 scores for 2 documents',
    );
    expect(() => parseChanged((f) => (f.run.rankings as { queryId: string }[])[1]!.queryId = 'q1')).toThrow(
      "Field \"run.rankings[1].queryId\": query 'q1' has two rankings",
    );
    expect(() => parseChanged((f) => (f.run.measures = ['bpref']))).toThrow(/Field "run.measures\[0\]": unknown measure 'bpref'/);
    expect(() => parseChanged((f) => (f.run.measures = ['ndcg_cut_10']))).toThrow(`Field "run.measures[0]": 'ndcg_cut_10' is saved as 'nDCG@10'`);
    expect(() => parseChanged((f) => delete (f.run.metrics as { aggregate: Record<string, number> }).aggregate.RR)).toThrow(
      "Field \"run.metrics.aggregate\" has no value for measure 'RR'",
    );
    expect(() => parseChanged((f) => (f.run.versions = {}))).toThrow('Field "run.versions.workbench" must be non-empty text');
  });

  it('refuses ids with whitespace, which no TREC export could write', () => {
    expect(() => parseChanged((f) => ((f.run.rankings as { docIds: string[] }[])[0]!.docIds[1] = 'a b'))).toThrow(
      "Field \"run.rankings[0].docIds[1]\": document id 'a b' contains whitespace",
    );
    expect(() => parseChanged((f) => ((f.run.rankings as { queryId: string }[])[0]!.queryId = 'q\t1'))).toThrow(/Field "run.rankings\[0\].queryId": query id 'q\t1' contains whitespace/);
  });

  it('accepts a run without metrics, and pipelines of kinds it does not know', () => {
    const run = parseChanged((f) => {
      f.run.metrics = null;
      f.run.pipeline = { kind: 'dense', model: 'm' };
    });
    expect(run.metrics).toBeNull();
    expect(run.pipeline).toEqual({ kind: 'dense', model: 'm' });
  });
});
