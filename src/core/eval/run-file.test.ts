import { describe, expect, it } from 'vitest';
import { formatTrecRun, parseTrecRun, readTrecRunLines } from './run-file.ts';
import type { RunMap } from './types.ts';

describe('parseTrecRun', () => {
  it('reads 6-column lines separated by any whitespace, keeping file order', () => {
    const text = 'q1 Q0 d1 1 2.5 bm25\nq1\tQ0\td2\t2\t-1e-3\tbm25\r\nq2  Q0  d3  1  7  x\n';
    const { run, issues } = parseTrecRun(text);
    expect(issues).toEqual([]);
    expect([...run.entries()]).toEqual([
      ['q1', [{ id: 'd1', score: 2.5 }, { id: 'd2', score: -0.001 }]],
      ['q2', [{ id: 'd3', score: 7 }]],
    ]);
  });

  it('skips a header and blank lines, reports malformed lines with 1-based numbers, keeps the rest', () => {
    const text = [
      'qid Q0 docid rank score tag', // 1: header, silent
      '', // 2: blank
      'q1 Q0 d1 1 0.9 t', // 3
      'q1 Q0 d2 2 0.8', // 4: five fields
      'q1 Q0 d3 x 0.7 t', // 5: bad rank
      'q1 Q0 d4 4 high t', // 6: bad score
      'q1 Q0 d1 5 0.1 t', // 7: repeated document
      'q1 Q0 d5 6 0.05 t', // 8
    ].join('\n');
    const { run, issues } = parseTrecRun(text);
    expect(run.get('q1')).toEqual([
      { id: 'd1', score: 0.9 },
      { id: 'd5', score: 0.05 },
    ]);
    expect(issues).toEqual([
      { line: 4, reason: 'expected 6 fields (qid Q0 docid rank score tag), found 5' },
      { line: 5, reason: "rank 'x' is not a number" },
      { line: 6, reason: "score 'high' is not a finite number" },
      { line: 7, reason: "document 'd1' repeated for query 'q1' (first on line 3); the first is kept" },
    ]);
  });

  it('a non-numeric line after the first is an issue, not a header', () => {
    const { issues } = parseTrecRun('q1 Q0 d1 1 1 t\nqid Q0 docid rank score tag\n');
    expect(issues.map((i) => i.line)).toEqual([2]);
  });

  it('has a line-iterator variant usable with streamed lines', () => {
    function* lines(): Generator<string> {
      yield 'q1 Q0 d1 1 3 t\r';
      yield 'broken';
      yield 'q1 Q0 d2 2 2 t';
    }
    const { run, issues } = readTrecRunLines(lines());
    expect(run.get('q1')).toEqual([
      { id: 'd1', score: 3 },
      { id: 'd2', score: 2 },
    ]);
    expect(issues).toEqual([{ line: 2, reason: 'expected 6 fields (qid Q0 docid rank score tag), found 1' }]);
  });

  it('reads an empty text as an empty run', () => {
    expect(parseTrecRun('')).toEqual({ run: new Map(), issues: [] });
  });
});

describe('formatTrecRun', () => {
  const run: RunMap = new Map([
    ['q1', [{ id: 'd1', score: 0.1 + 0.2 }, { id: 'd2', score: 1e-7 }]],
    ['q2', [{ id: 'd3', score: -2 }]],
  ]);

  it('writes ranks 1..n in list order with full-precision scores', () => {
    expect(formatTrecRun(run, 'mine')).toBe(
      'q1 Q0 d1 1 0.30000000000000004 mine\n' + 'q1 Q0 d2 2 1e-7 mine\n' + 'q2 Q0 d3 1 -2 mine\n',
    );
  });

  it('round-trips through parseTrecRun exactly', () => {
    const back = parseTrecRun(formatTrecRun(run, 'mine'));
    expect(back.issues).toEqual([]);
    expect(back.run).toEqual(run);
  });

  it('refuses what it cannot write', () => {
    expect(() => formatTrecRun(run, 'my tag')).toThrow(/run tag 'my tag'/);
    expect(() => formatTrecRun(run, '')).toThrow(/run tag/);
    expect(() => formatTrecRun(new Map([['q 1', []]]), 't')).toThrow(/query id 'q 1'/);
    expect(() => formatTrecRun(new Map([['q', [{ id: '', score: 1 }]]]), 't')).toThrow(/document id/);
    expect(() => formatTrecRun(new Map([['q', [{ id: 'd', score: NaN }]]]), 't')).toThrow(/score NaN/);
  });

  it('writes an empty run as empty text', () => {
    expect(formatTrecRun(new Map(), 't')).toBe('');
  });
});
