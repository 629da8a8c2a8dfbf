// `dsw embed`: real inference with the generated tiny BERT on the bundled sample corpus, written as .npy and .jsonl
// and read back by the app's import reader.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignToCorpus, cosine, loadEmbedder, readVectorFiles } from '../../core/index.ts';
import { ensureBundledTinyModel } from '../../test-support/tiny-model.ts';
import { captureIo } from '../../test-support/capture-io.ts';
import { main } from '../main.ts';

const root = path.resolve(import.meta.dirname, '../../..');
let tmp: string;
beforeAll(() => {
  ensureBundledTinyModel();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-embed-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const read = (file: string) => ({ path: file, bytes: new Uint8Array(fs.readFileSync(file)) });

describe('dsw embed', () => {
  it('writes every document vector as .npy with its ids file and as .jsonl, the same vectors the model makes', async () => {
    const npy = path.join(tmp, 'vectors.npy');
    const jsonl = path.join(tmp, 'vectors.jsonl');
    for (const out of [npy, jsonl]) {
      const io = captureIo(root);
      expect(await main(['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', out], io)).toBe(0);
      expect(io.stderr).toContain('Wrote 168 vectors of 32 dimensions');
    }
    const fromNpy = readVectorFiles([read(npy), read(path.join(tmp, 'vectors.ids.txt'))]);
    const fromJsonl = readVectorFiles([read(jsonl)]);
    expect(fromNpy).toMatchObject({ rows: 168, dims: 32 });
    expect(fromJsonl.ids).toEqual(fromNpy.ids);
    expect(fromJsonl.issues).toEqual([]);
    const ids = fromNpy.ids!;
    const a = alignToCorpus(fromNpy, ids).rows;
    const b = alignToCorpus(fromJsonl, ids).rows;
    expect(Math.max(...a.map((v, i) => Math.abs(v - b[i]!)))).toBeLessThan(1e-6);

    // The first document's vector is what the model makes of its text here.
    const corpus = fs.readFileSync(path.join(root, 'sample-data/meridian/corpus.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const doc = corpus.find((d: { _id: string }) => d._id === ids[0])!;
    const embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: path.join(root, 'public/models/') });
    const fresh = await embedder.embedTexts([doc.title ? `${doc.title}. ${doc.text}` : doc.text], 'passage');
    await embedder.dispose();
    expect(cosine(a.subarray(0, 32), fresh)).toBeGreaterThan(0.9999);
  });

  it('writes .safetensors with the ids and the model in its header, read back as the .npy route reads the same vectors', async () => {
    const file = path.join(tmp, 'vectors.safetensors');
    const io = captureIo(root);
    expect(await main(['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', file], io)).toBe(0);
    expect(io.stderr).toContain(`Wrote 168 vectors of 32 dimensions to ${file} (tiny-bert`);
    const fromSafetensors = readVectorFiles([read(file)]);
    expect(fromSafetensors).toMatchObject({ rows: 168, dims: 32, source: 'vectors.safetensors (ids in its header)', model: { modelId: 'tiny-bert', dimensions: 32 } });
    const npyFile = path.join(tmp, 'vectors.npy');
    if (!fs.existsSync(npyFile)) expect(await main(['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', npyFile], captureIo(root))).toBe(0);
    const fromNpy = readVectorFiles([read(npyFile), read(path.join(tmp, 'vectors.ids.txt'))]);
    expect(fromSafetensors.ids).toEqual(fromNpy.ids);
    expect(fromSafetensors.values).toEqual(fromNpy.values);
  });

  // Python's safetensors, when a venv of the repo has it (bench/peers/requirements.txt): it reads what dsw embed
  // wrote, and what it writes is read here.
  const python = [process.env.DSW_SAFETENSORS_PYTHON, ...['.venv-models', '.venv'].map((v) => path.join(root, v, 'bin/python'))].find(
    (p) => p && fs.existsSync(p) && spawnSync(p, ['-c', 'import safetensors.numpy, numpy'], { stdio: 'ignore' }).status === 0,
  );
  it.skipIf(!python)("round-trips with Python's safetensors package", async () => {
    const file = path.join(tmp, 'py-read.safetensors');
    expect(await main(['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', file], captureIo(root))).toBe(0);
    const ours = readVectorFiles([read(file)]);
    const written = path.join(tmp, 'py-written.safetensors');
    const script = [
      'import json, sys, numpy as np',
      'from safetensors import safe_open',
      'from safetensors.numpy import save_file',
      'with safe_open(sys.argv[1], framework="np") as f:',
      '    meta = f.metadata(); m = f.get_tensor("embeddings")',
      'ids = json.loads(meta["ids"])',
      'print(json.dumps({"shape": list(m.shape), "dtype": str(m.dtype), "first": ids[0], "row0": [float(x) for x in m[0]]}))',
      'save_file({"embeddings": m[::-1].astype(np.float16).copy()}, sys.argv[2], metadata={"ids": json.dumps(ids[::-1])})',
    ].join('\n');
    const run = spawnSync(python!, ['-c', script, file, written], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const seen = JSON.parse(run.stdout) as { shape: number[]; dtype: string; first: string; row0: number[] };
    expect(seen).toMatchObject({ shape: [168, 32], dtype: 'float32', first: ours.ids![0] });
    expect(Float32Array.from(seen.row0)).toEqual(ours.values.subarray(0, 32));
    const back = readVectorFiles([read(written)]);
    expect(back.ids).toEqual([...ours.ids!].reverse());
    const a = alignToCorpus(ours, ours.ids!).rows;
    const b = alignToCorpus(back, ours.ids!).rows;
    expect(Math.max(...a.map((v, i) => Math.abs(v - b[i]!)))).toBeLessThan(2e-3); // float16 rounding
  });

  it('says what is missing or wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['embed', '--model', 'public/models/tiny-bert', '--out', 'v.npy'], /needs --dataset/],
      [['embed', '--dataset', 'sample-data/meridian', '--out', 'v.npy'], /needs --model/],
      [['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert'], /needs --out/],
      [['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', 'v.csv'], /write \.safetensors, \.npy or \.jsonl/],
      [['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', path.join(tmp, 'v.npy'), '--param', 'k1=2'], /Unknown --param k1/],
    ];
    for (const [argv, message] of cases) {
      const io = captureIo(root);
      expect(await main(argv, io), argv.join(' ')).not.toBe(0);
      expect(io.stderr, argv.join(' ')).toMatch(message);
    }
  });
});
