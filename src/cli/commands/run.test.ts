import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildQrelsMap, evaluateRun, parseQrels, parseRunJson, parseTrecRun, runMapOfRecord, WORKBENCH_VERSION } from '../../core/index.ts';
import { main } from '../main.ts';
import { captureIo, type CapturedIo } from '../../test-support/capture-io.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = path.join(root, 'e2e/fixtures/tiny-beir');

function capture(cwd: string): CapturedIo {
  return captureIo(cwd);
}

describe('dsw run --save-json', () => {
  it('writes a saved-run JSON with the pipeline, configuration, versions, rankings and metrics', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-run-'));
    const io = capture(dir);
    const code = await main(
      ['run', '--dataset', dataset, '--param', 'k1=1.2', '--param', 'b=0.75', '--out', 'bm25.trec', '--save-json', 'bm25.json', '--name', 'Tuned BM25', '--measures', 'RR@10,P@1'],
      io,
    );
    expect(io.stderr).toContain('2 judged queries: RR@10 1.0000, P@1 1.0000');
    expect(code).toBe(0);
    const record = parseRunJson(fs.readFileSync(path.join(dir, 'bm25.json'), 'utf8'));
    expect(record.name).toBe('Tuned BM25');
    expect(record.pipeline).toEqual({ kind: 'bm25', params: { k1: 1.2, b: 0.75, d: 0, termCountBoost: false } });
    expect(record.config).toMatchObject({ k1: 1.2, b: 0.75, analyzer: { lowercase: true, stopWords: 'english', stemming: 'porter' } });
    expect(record.versions.workbench).toBe(WORKBENCH_VERSION);
    // Every saved run carries the inference runtime too (issue 11 item 23), BM25 runs included.
    expect(record.versions.runtime).toEqual({ node: process.version, 'transformers.js': expect.any(String), 'onnxruntime-node': expect.any(String) });
    expect(record.k).toBe(1000);
    expect(record.corpusName).toBe('tiny-beir');
    // Both queries have their relevant document at rank 1 (hand-checked: "tide mill wheel" → Tidal mills, "wind powered mill" → Windmills).
    expect(record.metrics).toEqual({ aggregate: { 'RR@10': 1, 'P@1': 1 }, perQuery: { tq1: { 'RR@10': 1, 'P@1': 1 }, tq2: { 'RR@10': 1, 'P@1': 1 } }, queryCount: 2 });
    // The JSON's rankings are the TREC file's, and score the same under trec_eval definitions.
    const trec = parseTrecRun(fs.readFileSync(path.join(dir, 'bm25.trec'), 'utf8'));
    expect(trec.issues).toEqual([]);
    expect(runMapOfRecord(record)).toEqual(trec.run);
    const qrels = buildQrelsMap(parseQrels(fs.readFileSync(path.join(dataset, 'qrels/test.tsv'), 'utf8')).qrels);
    expect(evaluateRun(qrels, trec.run, ['nDCG@10']).aggregate).toEqual(evaluateRun(qrels, runMapOfRecord(record), ['nDCG@10']).aggregate);
  });

  it('--keep-empty-documents keeps an empty document and its judgement, so recall counts it as the official qrels do', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-run-empty-'));
    const data = path.join(dir, 'empty');
    fs.mkdirSync(path.join(data, 'qrels'), { recursive: true });
    fs.writeFileSync(path.join(data, 'corpus.jsonl'), '{"_id": "d1", "title": "Wings", "text": "lift of wings"}\n{"_id": "d2", "title": "", "text": ""}\n{"_id": "d3", "title": "Tides", "text": "tide mills"}\n');
    fs.writeFileSync(path.join(data, 'queries.jsonl'), '{"_id": "q1", "text": "wings"}\n');
    fs.writeFileSync(path.join(data, 'qrels/test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t1\n');
    // Both loads share one index cache folder: the kept document must not come back from the other load's cache.
    const env = { DSW_CACHE_DIR: path.join(dir, 'cache') };
    const skip = captureIo(dir, env);
    expect(await main(['run', '--dataset', data, '--out', 'skip.trec', '--save-json', 'skip.json', '--measures', 'R@10'], skip)).toBe(0);
    expect(skip.stderr).toMatch(/corpus\.jsonl:2 \[text\]: empty text/);
    expect(parseRunJson(fs.readFileSync(path.join(dir, 'skip.json'), 'utf8')).metrics?.aggregate['R@10']).toBe(1);
    const keep = captureIo(dir, env);
    expect(await main(['run', '--dataset', data, '--keep-empty-documents', '--out', 'keep.trec', '--save-json', 'keep.json', '--measures', 'R@10'], keep)).toBe(0);
    expect(keep.stderr).not.toMatch(/empty text/);
    // d2 is judged relevant but has no text BM25 could match: recall 1 of 2, as trec_eval scores the official qrels.
    expect(parseRunJson(fs.readFileSync(path.join(dir, 'keep.json'), 'utf8')).metrics?.aggregate['R@10']).toBe(0.5);
    const help = captureIo(dir);
    await main(['run', '--help'], help);
    expect(help.stdout + help.stderr).toContain('--keep-empty-documents');
  });

  it('needs --out or --save-json, and a folder that exists', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-run-'));
    const none = capture(dir);
    expect(await main(['run', '--dataset', dataset], none)).toBe(2);
    expect(none.stderr).toBe('dsw run: dsw run needs --out <file> or --save-json <file>\n');
    const missing = capture(dir);
    expect(await main(['run', '--dataset', dataset, '--save-json', 'nowhere/run.json'], missing)).toBe(2);
    expect(missing.stderr).toContain('Cannot write nowhere/run.json: folder nowhere does not exist');
  });
});

describe('dsw run on a dataset in which no document loads', () => {
  it('prints every problem with file, line and field, and exits 2', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-run-bad-'));
    fs.mkdirSync(path.join(dir, 'set'));
    fs.writeFileSync(path.join(dir, 'set/corpus.jsonl'), '{"_id":"a b","text":"x"}\n{"_id":"d2"}\n{broken\n');
    fs.writeFileSync(path.join(dir, 'set/queries.jsonl'), '{"_id":"q1","text":"x"}\n');
    const io = capture(dir);
    expect(await main(['run', '--dataset', 'set', '--out', 'x.trec'], io)).toBe(2);
    expect(io.stderr).toContain('corpus.jsonl:1 [_id]: document id \'a b\' contains whitespace');
    expect(io.stderr).toContain("corpus.jsonl:2 [text]: empty text (field 'text')");
    expect(io.stderr).toContain('corpus.jsonl:3: invalid JSON');
    expect(io.stderr).toContain('Cannot load dataset set: No document could be loaded; all 3 problems are listed above.');
    expect(fs.existsSync(path.join(dir, 'x.trec'))).toBe(false);
  });
});
