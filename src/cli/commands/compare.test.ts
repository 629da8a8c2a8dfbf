import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../io.ts';
import { compareCommand, compareHelp } from './compare.ts';
import { captureIo, type CapturedIo } from '../../test-support/capture-io.ts';


let dir: string;
function capture(): CapturedIo {
  return captureIo(dir);
}

// q1..q3 have one relevant document each (TREC 4-column qrels).
// base RR: q1 a@1 → 1, q2 b@2 → 1/2, q3 missing → 0           mean 1/2
// a.trec:  q1 a@2 → 1/2, q2 b@1 → 1, q3 c@1 → 1               mean 5/6; diffs −1/2, +1/2, +1
//   exact p (units of 1/2: [−1, 1, 2], observed 2): sums 4, 0, 2, −2, 2, −2, 0, −4 → 6 of 8 → 0.75
// same.trec = base → all ties, p = 1.
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsw-compare-'));
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n');
  const base = 'q1 Q0 a 1 2 base\nq2 Q0 x 1 2 base\nq2 Q0 b 2 1 base\n';
  writeFileSync(join(dir, 'base.trec'), base);
  writeFileSync(join(dir, 'same.trec'), base);
  writeFileSync(join(dir, 'a.trec'), 'q1 Q0 x 1 2 a\nq1 Q0 a 2 1 a\nq2 Q0 b 1 2 a\nq3 Q0 c 1 2 a\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const baseArgs = ['--qrels', 'qrels.txt', '--baseline', 'base.trec'];

describe('dsw compare', () => {
  it('prints JSON rows per run and measure', async () => {
    const io = capture();
    const code = await compareCommand([...baseArgs, '--runs', 'a.trec', 'same.trec', '--measures', 'RR', '--json'], io);
    expect(code).toBe(0);
    expect(io.stderr).toBe('');
    const rows = JSON.parse(io.stdout);
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows[0])).toEqual(['run', 'measure', 'mean', 'baselineMean', 'delta', 'wins', 'ties', 'losses', 'pValue']);
    expect(rows[0]).toMatchObject({ run: 'a.trec', measure: 'RR', wins: 2, ties: 0, losses: 1 });
    expect(rows[0].mean).toBeCloseTo(5 / 6, 12);
    expect(rows[0].baselineMean).toBeCloseTo(0.5, 12);
    expect(rows[0].delta).toBeCloseTo(1 / 3, 12);
    // Monte-Carlo sd at p = 0.75 with 10,000 permutations ≈ 0.0043.
    expect(Math.abs(rows[0].pValue - 0.75)).toBeLessThan(0.018);
    expect(rows[1]).toEqual({
      run: 'same.trec',
      measure: 'RR',
      mean: 0.5,
      baselineMean: 0.5,
      delta: 0,
      wins: 0,
      ties: 3,
      losses: 0,
      pValue: 1,
    });
  });

  it('is reproducible with --seed and honours --permutations', async () => {
    const run = async (extra: string[]): Promise<number> => {
      const io = capture();
      await compareCommand([...baseArgs, '--runs', 'a.trec', '--measures', 'RR', '--json', ...extra], io);
      return JSON.parse(io.stdout)[0].pValue;
    };
    expect(await run(['--seed', '7'])).toBe(await run(['--seed', '7']));
    // With 3 permutations, p = (b + 1)/4 for some b in 0..3.
    const p = await run(['--permutations', '3', '--seed', '1']);
    expect([0.25, 0.5, 0.75, 1]).toContain(p);
  });

  it('prints a table by default', async () => {
    const io = capture();
    await compareCommand([...baseArgs, '--runs', 'a.trec', '--runs', 'same.trec', '--measures', 'RR,P@1'], io);
    const lines = io.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('baseline: base.trec (3 queries; 10000 permutations, seed 42)');
    expect(lines[1].split(/\s+/)).toEqual(['run', 'measure', 'mean', 'baseline', 'delta', 'wins', 'ties', 'losses', 'p']);
    const cells = lines.slice(3).map((l) => l.split(/\s+/));
    expect(cells.map((c) => [c[0], c[1]])).toEqual([
      ['a.trec', 'RR'],
      ['a.trec', 'P@1'],
      ['same.trec', 'RR'],
      ['same.trec', 'P@1'],
    ]);
    // a.trec P@1: base 1, 0, 0 → 1/3; a 0, 1, 1 → 2/3; 2 wins, 1 loss.
    expect(cells[1].slice(2, 8)).toEqual(['0.6667', '0.3333', '0.3333', '2', '0', '1']);
    expect(cells[2].slice(2)).toEqual(['0.5000', '0.5000', '0.0000', '0', '3', '0', '1.0000']);
  });

  it('passes --keep-identical-ids on', async () => {
    writeFileSync(join(dir, 'selfish.trec'), 'q1 Q0 q1 1 9 s\nq1 Q0 a 2 1 s\n');
    const rr = async (extra: string[]): Promise<number> => {
      const io = capture();
      await compareCommand([...baseArgs, '--runs', 'selfish.trec', '--measures', 'RR', '--json', ...extra], io);
      return JSON.parse(io.stdout)[0].mean;
    };
    // q1: a at rank 1 once 'q1' is dropped → RR mean (1 + 0 + 0)/3; kept → a at rank 2 → (1/2)/3.
    expect(await rr([])).toBeCloseTo(1 / 3, 12);
    expect(await rr(['--keep-identical-ids'])).toBeCloseTo(1 / 6, 12);
  });

  it('prints help', async () => {
    const io = capture();
    expect(await compareCommand(['-h'], io)).toBe(0);
    expect(io.stdout).toBe(compareHelp);
  });

  it('throws a one-line CliError for bad arguments', async () => {
    const cases: [string[], RegExp][] = [
      [['--baseline', 'base.trec', '--runs', 'a.trec'], /^missing --qrels/],
      [['--qrels', 'qrels.txt', '--runs', 'a.trec'], /^missing --baseline/],
      [baseArgs, /^missing --runs/],
      [[...baseArgs, '--runs', 'a.trec', 'a.trec'], /^run 'a.trec' is given twice$/],
      [[...baseArgs, '--runs', 'a.trec', '--seed', 'x'], /^--seed must be a whole number/],
      [[...baseArgs, '--runs', 'a.trec', '--seed', '4294967296'], /^--seed must be a whole number/],
      [[...baseArgs, '--runs', 'a.trec', '--permutations', '0'], /^--permutations must be a whole number from 1 to 1000000, got "0"$/],
      [[...baseArgs, '--runs', 'a.trec', '--permutations', '100000000000'], /^--permutations must be a whole number from 1 to 1000000, got "100000000000"$/],
      [[...baseArgs, '--runs', 'missing.trec'], /^cannot read --runs file 'missing.trec'/],
      [[...baseArgs, '--runs', 'a.trec', '--measures', 'nDCG@0'], /positive integer/],
    ];
    for (const [argv, message] of cases) {
      const error = await compareCommand(argv, capture()).catch((e: unknown) => e);
      expect(error, argv.join(' ')).toBeInstanceOf(CliError);
      expect((error as Error).message).toMatch(message);
    }
  });
});
