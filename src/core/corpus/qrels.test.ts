import { describe, expect, it } from 'vitest';
import { parseQrelsLine } from './qrels.ts';

describe('parseQrelsLine', () => {
  it('reads BEIR three-column lines with any whitespace', () => {
    expect(parseQrelsLine('q1\td1\t2')).toEqual({ ok: true, queryId: 'q1', docId: 'd1', relevance: 2 });
    expect(parseQrelsLine('  q1   d1 \t 0.5 ')).toEqual({ ok: true, queryId: 'q1', docId: 'd1', relevance: 0.5 });
    expect(parseQrelsLine('q1 d1 -1')).toEqual({ ok: true, queryId: 'q1', docId: 'd1', relevance: -1 });
  });

  it('reads TREC four-column lines (qid iteration docid rel)', () => {
    expect(parseQrelsLine('301 0 FBIS3-10082 1')).toEqual({ ok: true, queryId: '301', docId: 'FBIS3-10082', relevance: 1 });
  });

  it('ignores blank lines and rejects bad ones', () => {
    expect(parseQrelsLine('   ')).toBeNull();
    expect(parseQrelsLine('q1 d1')).toMatchObject({ ok: false, reason: expect.stringContaining('too few columns') });
    expect(parseQrelsLine('q1 0 d1 1 extra')).toMatchObject({ ok: false, reason: expect.stringContaining('too many columns') });
    expect(parseQrelsLine('q1 d1 high')).toMatchObject({ ok: false, field: 'score' });
    expect(parseQrelsLine('q1 d1 0x1')).toMatchObject({ ok: false, field: 'score' });
    expect(parseQrelsLine('query-id corpus-id score')).toMatchObject({ ok: false, field: 'score' });
  });
});
