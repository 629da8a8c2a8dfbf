import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../test-support/capture-io.ts';
import { main } from './main.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-encoding-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const latin1 = (text: string) => Buffer.from(text, 'latin1');

// A BEIR folder written in Latin-1: "café" and "cafè" are distinct ids only when read as Latin-1.
const dataset = path.join(dir, 'beir');
fs.mkdirSync(path.join(dataset, 'qrels'), { recursive: true });
fs.writeFileSync(
  path.join(dataset, 'corpus.jsonl'),
  latin1(['{"_id": "café", "title": "Café", "text": "harbour café lights"}', '{"_id": "cafè", "title": "Cafè", "text": "railway cafè"}', '{"_id": "d3", "text": "plain"}'].join('\n')),
);
fs.writeFileSync(path.join(dataset, 'queries.jsonl'), latin1('{"_id": "q1", "text": "harbour café"}\n'));
fs.writeFileSync(path.join(dataset, 'qrels', 'test.tsv'), latin1('query-id\tcorpus-id\tscore\nq1\tcafé\t1\n'));
fs.writeFileSync(path.join(dir, 'qrels.tsv'), latin1('café d1 1\ncafè d2 1\n'));
fs.writeFileSync(path.join(dir, 'a.trec'), latin1('café Q0 d1 1 2 a\ncafè Q0 d2 1 2 a\n'));
fs.writeFileSync(path.join(dir, 'b.trec'), latin1('café Q0 d9 1 2 b\ncafè Q0 d2 1 2 b\n'));

async function dsw(args: string[]) {
  const io = captureIo(dir);
  const code = await main(args, io).catch((error: unknown) => (io.stderr += String(error), 1));
  return { code, ...io };
}

describe('--encoding on every command that reads dataset, qrels or run files', () => {
  it('dsw search reads a Latin-1 dataset with --encoding latin1, and reports its lines without it', async () => {
    const read = await dsw(['search', '--dataset', dataset, '--query', 'café', '--json', '--encoding', 'latin1']);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout).map((h: { id: string }) => h.id)).toEqual(['café']);
    const plain = await dsw(['search', '--dataset', dataset, '--query', 'café', '--json']);
    expect(plain.stderr).toContain('not valid UTF-8');
  });

  it('dsw compare keeps café and cafè apart with --encoding latin1', async () => {
    const read = await dsw(['compare', '--qrels', 'qrels.tsv', '--baseline', 'a.trec', '--runs', 'b.trec', '--measures', 'RR', '--json', '--encoding', 'latin1']);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)[0]).toMatchObject({ measure: 'RR', baselineMean: 1, mean: 0.5 });
    const plain = await dsw(['compare', '--qrels', 'qrels.tsv', '--baseline', 'a.trec', '--runs', 'b.trec', '--measures', 'RR', '--json']);
    expect(plain.stderr).toContain('not valid UTF-8');
  });

  it('run, eval, compare, search, sweep and hds accept the option and refuse an unknown encoding in the same words', async () => {
    for (const command of ['run', 'eval', 'compare', 'search', 'sweep', 'hds']) {
      const help = await dsw([command, '--help']);
      expect(help.stdout).toContain('--encoding <name>');
    }
    const sweep = await dsw(['sweep', '--dataset', dataset, '--pipeline', 'gqr', '--grid', 'mixtureAlpha=0,1', '--encoding', 'latin1']);
    expect(sweep.stderr).not.toMatch(/unknown option/i); // it fails later, for want of --model
    for (const args of [
      ['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--out', path.join(dir, 'out.json'), '--encoding', 'koi8'],
      ['search', '--dataset', dataset, '--query', 'q', '--encoding', 'koi8'],
    ]) {
      const out = await dsw(args);
      expect(out.code).not.toBe(0);
      expect(out.stderr).toContain("--encoding must be utf-8 or latin1, not 'koi8'");
    }
  });
});
