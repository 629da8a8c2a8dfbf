// `dsw run` and `dsw search` with dense and hybrid pipelines: real inference with the generated tiny BERT in
// public/models/tiny-bert (onnxruntime-node), on the bundled sample corpus.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunJson } from '../../core/index.ts';
import { ensureBundledTinyModel } from '../../test-support/tiny-model.ts';
import { main } from '../main.ts';
import { captureIo, type CapturedIo } from '../../test-support/capture-io.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = 'sample-data/meridian';
const model = 'public/models/tiny-bert';
let tmp: string;

function capture(): CapturedIo {
  return captureIo(root);
}

interface RunLine {
  qid: string;
  doc: string;
  rank: number;
  score: number;
  tag: string;
}
const readRun = (file: string): RunLine[] =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [qid, , doc, rank, score, tag] = line.split(' ');
      return { qid: qid!, doc: doc!, rank: Number(rank), score: Number(score), tag: tag! };
    });

beforeAll(() => {
  ensureBundledTinyModel();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-dense-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('dsw with dense pipelines (tiny-bert)', () => {
  it('dsw search --param vectorForm=int8|int8-exact|binary gives the exact float32 hits; a bad form is refused with words', async () => {
    const search = async (...extra: string[]) => {
      const io = capture();
      const code = await main(['search', '--dataset', dataset, '--pipeline', 'dense', '--model', model, '--query', 'lighthouse keeper in a storm', '--top-k', '10', '--json', ...extra], io);
      return { code, io };
    };
    const exact = await search();
    expect(exact.code).toBe(0);
    for (const form of ['int8', 'int8-exact', 'binary']) {
      const compact = await search('--param', `vectorForm=${form}`);
      expect(compact.code).toBe(0);
      expect(JSON.parse(compact.io.stdout)).toEqual(JSON.parse(exact.io.stdout));
    }
    const bad = await search('--param', 'vectorForm=int4');
    expect(bad.code).not.toBe(0);
    expect(bad.io.stderr).toMatch(/vectorForm/);
  }, 240_000); // five searches, each embedding the corpus

  it('dsw search --pipeline dense: a query equal to a document’s embedded text finds it first with cosine 1', async () => {
    const doc = fs
      .readFileSync(path.join(root, dataset, 'corpus.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { _id: string; title: string; text: string })
      .find((d) => d._id === 'm002')!;
    const io = capture();
    const code = await main(['search', '--dataset', dataset, '--pipeline', 'dense', '--model', model, '--query', `${doc.title}. ${doc.text}`, '--top-k', '3', '--json'], io);
    expect(io.stderr).toContain('Embedded 168 documents with tiny-bert (32 dims, onnxruntime-node)');
    expect(code).toBe(0);
    const rows = JSON.parse(io.stdout) as Array<{ rank: number; id: string; score: number }>;
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ rank: 1, id: 'm002', title: 'Port Avel' });
    expect(rows[0]!.score).toBeCloseTo(1, 5);
    expect(rows[1]!.score).toBeLessThan(rows[0]!.score);
  });

  it('dsw run --pipeline dense writes a TREC run of every query, ranked by descending cosine', async () => {
    const out = path.join(tmp, 'dense.trec');
    const io = capture();
    expect(await main(['run', '--dataset', dataset, '--pipeline', 'dense', '--model', model, '--top-k', '5', '--out', out], io)).toBe(0);
    const lines = readRun(out);
    expect(new Set(lines.map((l) => l.qid)).size).toBe(54);
    expect(lines).toHaveLength(54 * 5);
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      expect(l.tag).toBe('dense');
      expect(Math.abs(l.score)).toBeLessThanOrEqual(1 + 1e-6);
      if (l.rank > 1) expect(l.score).toBeLessThanOrEqual(lines[i - 1]!.score);
    }
  });

  it('dsw run --pipeline rrf saves the fused run with both children in its spec and scores it', async () => {
    const json = path.join(tmp, 'rrf.json');
    const io = capture();
    expect(await main(['run', '--dataset', dataset, '--pipeline', 'rrf', '--model', model, '--param', 'k=10', '--top-k', '10', '--save-json', json], io)).toBe(0);
    const record = parseRunJson(fs.readFileSync(json, 'utf8'));
    expect(record.pipeline).toMatchObject({ kind: 'rrf', k: 10, fetchKMultiplier: 2, pipelines: [{ kind: 'dense' }, { kind: 'bm25' }] });
    expect(JSON.stringify(record.pipeline)).toContain('tiny-bert');
    expect(record.config).toMatchObject({ method: 'rrf', k: 10, pipeline1: { pipeline: 'dense', config: { model: { modelId: 'tiny-bert', dimensions: 32 } } } });
    expect(record.metrics?.queryCount).toBeGreaterThan(0);
    // The inference software that made the vectors is recorded with the run (reproducibility).
    const transformersVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@huggingface/transformers/package.json'), 'utf8')).version;
    const ortVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/onnxruntime-node/package.json'), 'utf8')).version;
    expect(record.versions.runtime).toEqual({ 'transformers.js': transformersVersion, 'onnxruntime-node': ortVersion, node: process.version });
    // RRF with k 10: a document first in both lists scores 2/11, the most any document can.
    for (const ranking of record.rankings) expect(ranking.scores[0]!).toBeLessThanOrEqual(2 / 11 + 1e-12);
  });

  it('dsw search --pipeline cc with tmm takes the children’s theoretical minima by default and records them', async () => {
    const json = path.join(tmp, 'cc.json');
    const io = capture();
    const args = ['run', '--dataset', dataset, '--pipeline', 'cc', '--model', 'tiny-bert', '--models-dir', 'public/models', '--param', 'normalizeMethod=tmm'];
    expect(await main([...args, '--param', 'weight=0.3', '--top-k', '5', '--save-json', json], io)).toBe(0);
    const record = parseRunJson(fs.readFileSync(json, 'utf8'));
    expect(record.pipeline).toMatchObject({ kind: 'cc', normalizeMethod: 'tmm', weight: 0.3, pipeline1Min: -1, pipeline2Min: 0 });
  });

  it('says clearly when the model is missing or cannot be loaded', async () => {
    const noModel = capture();
    expect(await main(['search', '--dataset', dataset, '--pipeline', 'dense', '--query', 'salt'], noModel)).toBe(2);
    expect(noModel.stderr).toContain('Dense pipelines need --model <model folder or model id>');
    const broken = capture();
    expect(await main(['search', '--dataset', dataset, '--pipeline', 'dense', '--model', 'no-such-model', '--query', 'salt'], broken)).toBe(2);
    expect(broken.stderr).toContain(`Could not load embedding model "no-such-model" (dtype fp32) from local path "${path.join(root, 'public/models')}/no-such-model/"`);
    const badParam = capture();
    expect(await main(['search', '--dataset', dataset, '--pipeline', 'rrf', '--model', model, '--param', 'weight=0.3', '--query', 'salt'], badParam)).toBe(2);
    expect(badParam.stderr).toContain('Unknown --param weight for pipeline rrf');
  });
});
