// `--vector-cache`: a second dense run over the same model, settings and corpus reads the vectors instead of
// embedding, with the same results; a changed document text or setting embeds again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundledTinyModel } from '../test-support/tiny-model.ts';
import { captureIo } from '../test-support/capture-io.ts';
import { main } from './main.ts';

const root = path.resolve(import.meta.dirname, '../..');
let tmp: string;

beforeAll(() => {
  ensureBundledTinyModel();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-vector-cache-'));
  fs.cpSync(path.join(root, 'sample-data/meridian'), path.join(tmp, 'data'), { recursive: true });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function denseRun(out: string, ...extra: string[]) {
  const io = captureIo(root);
  const code = await main(
    ['run', '--dataset', path.join(tmp, 'data'), '--pipeline', 'dense', '--model', 'public/models/tiny-bert', '--out', path.join(tmp, out), '--vector-cache', path.join(tmp, 'cache'), ...extra],
    io,
  );
  expect(code, io.stderr).toBe(0);
  return { stderr: io.stderr, run: fs.readFileSync(path.join(tmp, out), 'utf8') };
}

describe('dsw run --vector-cache', () => {
  it('embeds once, then reads the same vectors back; a changed text or setting embeds again', async () => {
    const first = await denseRun('a.trec');
    expect(first.stderr).toMatch(/Embedded \d+ documents with tiny-bert/);
    expect(fs.readdirSync(path.join(tmp, 'cache')).filter((f) => f.endsWith('.f32'))).toHaveLength(1);

    const second = await denseRun('b.trec');
    expect(second.stderr).toMatch(/Read \d+ document vectors of tiny-bert from the vector cache/);
    expect(second.stderr).not.toMatch(/Embedded \d+ documents/);
    expect(second.run).toBe(first.run);

    const prefixed = await denseRun('c.trec', '--param', 'passagePrefix=passage: ');
    expect(prefixed.stderr).toMatch(/Embedded \d+ documents with tiny-bert/);

    const corpus = path.join(tmp, 'data/corpus.jsonl');
    const lines = fs.readFileSync(corpus, 'utf8').split('\n');
    const doc = JSON.parse(lines[0]!) as { text: string };
    lines[0] = JSON.stringify({ ...doc, text: `${doc.text} A changed sentence.` });
    fs.writeFileSync(corpus, lines.join('\n'));
    const changed = await denseRun('d.trec');
    expect(changed.stderr).toMatch(/Embedded \d+ documents with tiny-bert/);
    expect(fs.readdirSync(path.join(tmp, 'cache')).filter((f) => f.endsWith('.f32'))).toHaveLength(3);
  });
});
