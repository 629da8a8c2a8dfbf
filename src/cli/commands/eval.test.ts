import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../io.ts';
import { evalCommand, evalHelp } from './eval.ts';
import { captureIo, type CapturedIo } from '../../test-support/capture-io.ts';


let dir: string;
function capture(): CapturedIo {
  return captureIo(dir);
}

const LOG2_3 = Math.log2(3);
// q1: ranking d2 (1), d1 (2), x → RR 1, P@2 1, nDCG@2 = (1 + 2/log2 3) / (2 + 1/log2 3) = 0.8597186999.
// q2: 'q2' dropped (= query id); y and d3 tie at 5 → 'y' > 'd3' first → RR 1/2, P@2 1/2, nDCG@2 = 1/log2 3.
// q3: no relevant judgement → skipped.
const Q1_NDCG2 = (1 + 2 / LOG2_3) / (2 + 1 / LOG2_3);
const Q2_NDCG2 = 1 / LOG2_3;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsw-eval-'));
  writeFileSync(join(dir, 'qrels.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t1\nq2\td3\t1\nq3\td4\t0\n');
  writeFileSync(
    join(dir, 'run.trec'),
    [
      'q1 Q0 d2 1 10 t',
      'q1 Q0 d1 2 9 t',
      'q1 Q0 x 3 8 t',
      'q2 Q0 q2 1 99 t',
      'q2 Q0 y 2 5 t',
      'q2 Q0 d3 3 5 t',
      'this line is broken',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'empty.trec'), '');
  writeFileSync(join(dir, 'junk.txt'), 'hello\nworld\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dsw eval', () => {
  it('prints aggregate JSON only, without --per-query', async () => {
    const io = capture();
    const code = await evalCommand(['--qrels', 'qrels.tsv', '--run', 'run.trec', '--measures', 'RR,P@2,nDCG@2', '--json'], io);
    expect(code).toBe(0);
    const out = JSON.parse(io.stdout);
    expect(Object.keys(out)).toEqual(['aggregate']);
    expect(Object.keys(out.aggregate)).toEqual(['RR', 'P@2', 'nDCG@2']);
    expect(out.aggregate.RR).toBeCloseTo(0.75, 12);
    expect(out.aggregate['P@2']).toBeCloseTo(0.75, 12);
    expect(out.aggregate['nDCG@2']).toBeCloseTo((Q1_NDCG2 + Q2_NDCG2) / 2, 9);
    expect(out.aggregate['nDCG@2']).toBeCloseTo((0.8597186999 + 0.6309297536) / 2, 9);
    // The broken run line is reported with its 1-based number.
    expect(io.stderr).toBe('warning: run.trec line 7: expected 6 fields (qid Q0 docid rank score tag), found 4\n');
  });

  it('reads trec_eval and ranx measure names as the same measures, reported under the ir_measures names', async () => {
    const io = capture();
    const code = await evalCommand(['--qrels', 'qrels.tsv', '--run', 'run.trec', '--measures', 'recip_rank,P_2,ndcg_cut.2', '--json'], io);
    expect(code).toBe(0);
    const out = JSON.parse(io.stdout);
    expect(Object.keys(out.aggregate)).toEqual(['RR', 'P@2', 'nDCG@2']);
    expect(out.aggregate['nDCG@2']).toBeCloseTo((Q1_NDCG2 + Q2_NDCG2) / 2, 9);
    const ranx = capture();
    await evalCommand(['--qrels', 'qrels.tsv', '--run', 'run.trec', '--measures', 'mrr,precision@2,ndcg@2', '--json'], ranx);
    expect(JSON.parse(ranx.stdout)).toEqual(out);
  });

  it('keeps queries whose ids are __proto__, constructor or toString in the per-query results (issue case 3)', async () => {
    writeFileSync(join(dir, 'proto-qrels.tsv'), '__proto__\td1\t1\nconstructor\td2\t1\ntoString\td3\t1\n');
    writeFileSync(join(dir, 'proto-run.trec'), '__proto__ Q0 d1 1 3 t\nconstructor Q0 x 1 3 t\nconstructor Q0 d2 2 2 t\ntoString Q0 y 1 1 t\n');
    const table = capture();
    expect(await evalCommand(['--qrels', 'proto-qrels.tsv', '--run', 'proto-run.trec', '--measures', 'RR', '--per-query'], table)).toBe(0);
    expect(table.stdout).toMatch(/__proto__\s+1\.0000/);
    expect(table.stdout).toMatch(/constructor\s+0\.5000/);
    expect(table.stdout).toMatch(/toString\s+0\.0000/);
    expect(table.stdout).toMatch(/all\s+0\.5000/);
    expect(table.stdout).toContain('(means over 3 queries with a relevant judgement)');
    const json = capture();
    await evalCommand(['--qrels', 'proto-qrels.tsv', '--run', 'proto-run.trec', '--measures', 'RR', '--per-query', '--json'], json);
    const out = JSON.parse(json.stdout);
    expect(Object.keys(out.perQuery).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(out.perQuery.__proto__).toEqual({ RR: 1 });
  });

  it('names the line and reason when the only qrels line has a grade that is not a number, and refuses absurd grades (issue cases 11, 12)', async () => {
    writeFileSync(join(dir, 'abc.qrels'), 'q1 d1 abc\n');
    const error = await evalCommand(['--qrels', 'abc.qrels', '--run', 'run.trec'], capture()).catch((e: unknown) => e);
    expect((error as Error).message).toBe("no relevance judgement found in --qrels file 'abc.qrels' (line 1: relevance 'abc' is not a number (taken as a header row, and no judgement follows))");
    writeFileSync(join(dir, 'huge.qrels'), 'q1 d1 1e308\nq1 d2 1\n');
    const io = capture();
    expect(await evalCommand(['--qrels', 'huge.qrels', '--run', 'run.trec', '--measures', 'RR', '--json'], io)).toBe(0);
    expect(io.stderr).toContain("warning: huge.qrels line 1: relevance '1e308' is out of range: grades go from -1000 to 1000");
    expect(JSON.parse(io.stdout).aggregate.RR).toBe(1);
  });

  it('adds perQuery with --per-query', async () => {
    const io = capture();
    await evalCommand(['--qrels', 'qrels.tsv', '--run', 'run.trec', '--measures', 'RR', '--measures', 'P@2', '--json', '--per-query'], io);
    const out = JSON.parse(io.stdout);
    expect(Object.keys(out)).toEqual(['aggregate', 'perQuery']);
    expect(out.perQuery).toEqual({ q1: { RR: 1, 'P@2': 1 }, q2: { RR: 0.5, 'P@2': 0.5 } });
  });

  it('keeps query-id results with --keep-identical-ids', async () => {
    const io = capture();
    await evalCommand(
      ['--qrels', 'qrels.tsv', '--run', 'run.trec', '--measures', 'RR', '--json', '--per-query', '--keep-identical-ids'],
      io,
    );
    // q2 ranking: q2 (99, unjudged), y, d3 → RR = 1/3.
    expect(JSON.parse(io.stdout).perQuery.q2.RR).toBeCloseTo(1 / 3, 12);
  });

  it('prints an aligned table by default, with the default measures', async () => {
    const io = capture();
    expect(await evalCommand(['--qrels', join(dir, 'qrels.tsv'), '--run', 'run.trec', '--per-query'], io)).toBe(0);
    const lines = io.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['query', 'nDCG@10', 'R@100', 'AP', 'RR@10', 'P@10']);
    expect(lines[1]).toMatch(/^-+( +-+){5}$/);
    expect(lines[2].split(/\s+/)[0]).toBe('q1');
    expect(lines[3].split(/\s+/)[0]).toBe('q2');
    // all: R@100 = (2/2 + 1/1)/2 = 1; AP = (1 + (1/2)/1)/2 = 0.75; P@10 = (2/10 + 1/10)/2 = 0.15.
    expect(lines[4].split(/\s+/)).toEqual(['all', expect.any(String), '1.0000', '0.7500', '0.7500', '0.1500']);
    expect(lines[5]).toBe('(means over 2 queries with a relevant judgement)');
    // Columns line up: every row is as long as the header's dash line for the last column.
    expect(new Set(lines.slice(0, 5).map((l) => l.length)).size).toBe(1);
  });

  it('warns about an empty run and scores it 0', async () => {
    const io = capture();
    await evalCommand(['--qrels', 'qrels.tsv', '--run', 'empty.trec', '--measures', 'AP', '--json'], io);
    expect(JSON.parse(io.stdout)).toEqual({ aggregate: { AP: 0 } });
    expect(io.stderr).toContain('the run has no results');
  });

  it('prints help', async () => {
    const io = capture();
    expect(await evalCommand(['--help'], io)).toBe(0);
    expect(io.stdout).toBe(evalHelp);
    expect(evalHelp).toContain('present only with --per-query');
  });

  it('throws a one-line CliError for bad arguments and unreadable files', async () => {
    const cases: [string[], RegExp][] = [
      [['--run', 'run.trec'], /^missing --qrels/],
      [['--qrels', 'qrels.tsv'], /^missing --run/],
      [['--qrels', 'nope.tsv', '--run', 'run.trec'], /^cannot read --qrels file 'nope.tsv': ENOENT$/],
      [['--qrels', 'qrels.tsv', '--run', 'nope.trec'], /^cannot read --run file 'nope.trec': ENOENT$/],
      [['--qrels', 'junk.txt', '--run', 'run.trec'], /^no relevance judgement found in --qrels file 'junk.txt' \(line 1: expected 3 fields .*found 1\)$/],
      [['--qrels', 'qrels.tsv', '--run', 'run.trec', '--measures', 'bpref'], /^unknown measure 'bpref' \(supported: .*ndcg_cut_10/],
      [['--qrels', 'qrels.tsv', '--run', 'run.trec', '--bogus'], /bogus/],
      [['--qrels', 'qrels.tsv', '--run', 'run.trec', 'extra'], /extra/],
    ];
    for (const [argv, message] of cases) {
      const error = await evalCommand(argv, capture()).catch((e: unknown) => e);
      expect(error, argv.join(' ')).toBeInstanceOf(CliError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('reads UTF-16 and CR-only files, reports invalid UTF-8 lines instead of merging ids, refuses binary files', async () => {
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    writeFileSync(join(dir, 'qrels16.tsv'), utf16('query-id\tcorpus-id\tscore\r\nq1\td1\t1\r\n'));
    writeFileSync(join(dir, 'run-cr.trec'), 'q1 Q0 d1 1 2 t\rq1 Q0 d2 2 1 t\r');
    const io = capture();
    expect(await evalCommand(['--qrels', 'qrels16.tsv', '--run', 'run-cr.trec', '--measures', 'RR', '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout)).toEqual({ aggregate: { RR: 1 } });
    expect(io.stderr).toBe('');

    // Query ids caf\xE9 and caf\xE8 (Latin-1) must not both become 'caf\uFFFD'.
    const latin1 = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' d1 1\ncaf'), Buffer.from([0xe8]), Buffer.from(' d2 1\nq1 d1 1\n')]);
    writeFileSync(join(dir, 'latin1.qrels'), latin1);
    const bad = capture();
    expect(await evalCommand(['--qrels', 'latin1.qrels', '--run', 'run-cr.trec', '--measures', 'RR', '--json', '--per-query'], bad)).toBe(0);
    expect(Object.keys(JSON.parse(bad.stdout).perQuery)).toEqual(['q1']);
    expect(bad.stderr).toContain('latin1.qrels line 1: the line is not valid UTF-8');
    expect(bad.stderr).toContain('latin1.qrels line 2: the line is not valid UTF-8');
    const asLatin1 = capture();
    expect(await evalCommand(['--qrels', 'latin1.qrels', '--run', 'run-cr.trec', '--measures', 'RR', '--json', '--per-query', '--encoding', 'latin1'], asLatin1)).toBe(0);
    expect(Object.keys(JSON.parse(asLatin1.stdout).perQuery)).toEqual(['café', 'cafè', 'q1']);

    writeFileSync(join(dir, 'binary.trec'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]));
    const error = await evalCommand(['--qrels', 'qrels.tsv', '--run', 'binary.trec'], capture()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toBe("--run file 'binary.trec': it looks like a binary file, not text (a NUL byte at byte 8), so it is not read");
    const badEncoding = await evalCommand(['--qrels', 'qrels.tsv', '--run', 'run.trec', '--encoding', 'koi8'], capture()).catch((e: unknown) => e);
    expect((badEncoding as Error).message).toBe("--encoding must be utf-8 or latin1, not 'koi8'");
  });
});
