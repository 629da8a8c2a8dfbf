// `dsw embed`: real inference with the generated tiny BERT on the bundled sample corpus, written as .npy and .jsonl
// and read back by the app's import reader.
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

  it('says what is missing or wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['embed', '--model', 'public/models/tiny-bert', '--out', 'v.npy'], /needs --dataset/],
      [['embed', '--dataset', 'sample-data/meridian', '--out', 'v.npy'], /needs --model/],
      [['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert'], /needs --out/],
      [['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', 'v.csv'], /write \.jsonl or \.npy/],
      [['embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', path.join(tmp, 'v.npy'), '--param', 'k1=2'], /Unknown --param k1/],
    ];
    for (const [argv, message] of cases) {
      const io = captureIo(root);
      expect(await main(argv, io), argv.join(' ')).not.toBe(0);
      expect(io.stderr, argv.join(' ')).toMatch(message);
    }
  });
});
