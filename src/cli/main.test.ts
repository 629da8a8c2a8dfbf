import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.ts';
import { captureIo, type CapturedIo } from '../test-support/capture-io.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dataset = path.join(root, 'e2e/fixtures/tiny-beir');

function capture(cwd = root): CapturedIo {
  return captureIo(cwd);
}

describe('dsw', () => {
  it('lists its commands and rejects an unknown one', async () => {
    const io = capture();
    expect(await main(['--help'], io)).toBe(0);
    for (const command of ['search', 'run', 'eval', 'compare']) expect(io.stdout).toContain(command);
    const bad = capture();
    expect(await main(['serch'], bad)).toBe(2);
    expect(bad.stderr).toBe('dsw: unknown command "serch". Run "dsw --help" for the list.\n');
  });

  it('searches a BEIR folder with BM25 and prints JSON', async () => {
    const io = capture();
    expect(await main(['search', '--dataset', dataset, '--query', 'tidal dam', '--top-k', '5', '--json'], io)).toBe(0);
    const rows = JSON.parse(io.stdout) as Array<{ rank: number; id: string; score: number; title: string }>;
    expect(rows).toHaveLength(1); // only t1 mentions a tide or a dam
    expect(rows[0]).toMatchObject({ rank: 1, id: 't1', title: 'Tidal mills' });
    const water = capture();
    expect(await main(['search', '--dataset', dataset, '--query', 'water', '--top-k', '1', '--json'], water)).toBe(0);
    expect(JSON.parse(water.stdout)).toHaveLength(1); // t3 and t4 match; --top-k keeps one
  });

  it('prints an aligned table without --json', async () => {
    const io = capture();
    expect(await main(['search', '--dataset', dataset, '--query', 'salt'], io)).toBe(0);
    expect(io.stdout.split('\n')[0]).toMatch(/^rank\s+id\s+score\s+title$/);
    expect(io.stdout).toContain('Salt pans');
  });

  it('writes a TREC run for every query that dsw eval then scores', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-cli-'));
    const out = path.join(dir, 'bm25.run');
    const io = capture(dir);
    expect(await main(['run', '--dataset', dataset, '--pipeline', 'bm25', '--param', 'k1=1.2', '--param', 'b=0.75', '--out', 'bm25.run'], io)).toBe(0);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^tq1 Q0 t1 1 [\d.]+ bm25$/);
    expect(new Set(lines.map((l) => l.split(' ')[0]))).toEqual(new Set(['tq1', 'tq2']));
    const evalIo = capture(dir);
    expect(await main(['eval', '--qrels', path.join(dataset, 'qrels/test.tsv'), '--run', out, '--measures', 'RR@10', '--json'], evalIo)).toBe(0);
    // tq1: t1 (relevant) first → 1; tq2: "wind powered mill" ranks t2 (the windmill passage) first → 1
    expect(JSON.parse(evalIo.stdout).aggregate['RR@10']).toBe(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives one clear line and a non-zero exit for bad arguments and unreadable files', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['search', '--query', 'x'], /^dsw search: dsw search needs --dataset <dir> \(or --opensearch <url> --index <name>\)\n$/],
      [['search', '--dataset', '/nonexistent/dir', '--query', 'x'], /^dsw search: Cannot read dataset \/nonexistent\/dir: no such file or directory\n$/],
      [['search', '--dataset', dataset, '--query', 'x', '--top-k', 'ten'], /--top-k must be a whole number from 1 to 100000, got "ten"/],
      [['run', '--dataset', dataset, '--out', 'x.run', '--param', 'k1'], /--param expects name=value, got "k1"/],
      [['run', '--dataset', dataset, '--out', 'x.run', '--param', 'k9=1'], /Unknown --param k9 for pipeline bm25/],
      [['run', '--dataset', dataset, '--out', 'x.run', '--pipeline', 'magic'], /Unknown pipeline "magic"/],
      [['run', '--dataset', dataset, '--out', '/nonexistent/x.run'], /Cannot write \/nonexistent\/x.run/],
      [['search', '--dataset', dataset, '--bogus'], /Unknown option '--bogus'/],
      [['run', '--dataset', dataset, '--out', 'x.run', '--top-k', '1e12'], /--top-k must be a whole number from 1 to 100000, got "1e12"/],
      [['sweep', '--dataset', dataset, '--grid', 'mixtureAlpha=0,1', '--model', 'm', '--top-k', '0'], /--top-k must be a whole number from 1 to 100000, got "0"/],
      [['compare', '--qrels', 'q', '--baseline', 'a', '--runs', 'b', '--permutations', '100000000000'], /^dsw compare: --permutations must be a whole number from 1 to 1000000, got "100000000000"\n$/],
      [['compare', '--qrels', 'q', '--baseline', 'a', '--runs', 'b', '--seed=-3'], /--seed must be a whole number from 0 to 4294967295, got "-3"/],
      // A negative value after a space is the option's value, checked against its range (issue case 12).
      [['compare', '--qrels', 'q', '--baseline', 'a', '--runs', 'b', '--seed', '-3'], /^dsw compare: --seed must be a whole number from 0 to 4294967295, got "-3"\n$/],
      [['compare', '--qrels', 'q', '--baseline', 'a', '--runs', 'b', '--permutations', '-5'], /^dsw compare: --permutations must be a whole number from 1 to 1000000, got "-5"\n$/],
      [['serve', '--dataset', dataset, '--port', '-1'], /^dsw serve: --port must be a whole number from 0 to 65535, got "-1"\n$/],
      [['search', '--dataset', dataset, '--query', 'x', '--top-k', '-2'], /^dsw search: --top-k must be a whole number from 1 to 100000, got "-2"\n$/],
      [['run', '--dataset', dataset, '--out', 'x.run', '--top-k', '-.5'], /--top-k must be a whole number from 1 to 100000, got "-.5"/],
      [['search', '--dataset', dataset, '--query', '-x'], /ambiguous/],
    ];
    for (const [args, message] of cases) {
      const io = capture();
      expect(await main(args, io), args.join(' ')).toBe(2);
      expect(io.stderr.trim().split('\n')).toHaveLength(1);
      expect(io.stderr).toMatch(message);
    }
  });

  it('runs as a real process through bin/dsw.mjs', () => {
    const help = execFileSync(process.execPath, [path.join(root, 'bin/dsw.mjs'), '--help'], { encoding: 'utf8' });
    expect(help).toContain('Usage: dsw <command>');
    const failed = spawnSync(process.execPath, [path.join(root, 'bin/dsw.mjs'), 'search'], { encoding: 'utf8' });
    expect(failed.status).toBe(2);
    expect(failed.stderr).toContain('needs --dataset');
  });
});
