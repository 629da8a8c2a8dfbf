import { describe, expect, it } from 'vitest';
import { parseQrels, readQrelsLines } from './qrels-file.ts';

describe('parseQrels', () => {
  it('reads BEIR 3-column qrels with a header', () => {
    const { qrels, issues } = parseQrels('query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n');
    expect(issues).toEqual([]);
    expect(qrels).toEqual([
      { queryId: 'q1', docId: 'd1', relevance: 1 },
      { queryId: 'q1', docId: 'd2', relevance: 0 },
    ]);
  });

  it('reads TREC 4-column qrels without a header, any whitespace', () => {
    const { qrels, issues } = parseQrels('q1 0 d1 2\r\nq2\t0   d9\t-1\n');
    expect(issues).toEqual([]);
    expect(qrels).toEqual([
      { queryId: 'q1', docId: 'd1', relevance: 2 },
      { queryId: 'q2', docId: 'd9', relevance: -1 },
    ]);
  });

  it('reports malformed lines (1-based) and keeps the rest', () => {
    const text = [
      'q1 d1 1', // 1
      '', // 2
      'q1 d2', // 3: two fields
      'q1 0 d3 1 extra', // 4: five fields
      'q1 d4 yes', // 5: not a number
      'q1 d5 1', // 6
    ].join('\n');
    const { qrels, issues } = parseQrels(text);
    expect(qrels.map((q) => q.docId)).toEqual(['d1', 'd5']);
    expect(issues).toEqual([
      {
        line: 3,
        reason: 'expected 3 fields (query-id corpus-id score) or 4 (qid iteration docid relevance), found 2',
      },
      {
        line: 4,
        reason: 'expected 3 fields (query-id corpus-id score) or 4 (qid iteration docid relevance), found 5',
      },
      { line: 5, reason: "relevance 'yes' is not a number" },
    ]);
  });

  it('reports a pair judged again with another relevance; identical repeats are silent', () => {
    const { qrels, issues } = parseQrels('q1 d1 1\nq1 d1 1\nq1 d1 2\n');
    expect(qrels).toHaveLength(3);
    expect(issues).toEqual([
      { line: 3, reason: "query 'q1' document 'd1' was judged 1 on line 2; the last judgement (2) is used" },
    ]);
  });

  it('has a line-iterator variant', () => {
    const { qrels, issues } = readQrelsLines(new Set(['q 0 d 1', 'bad']));
    expect(qrels).toEqual([{ queryId: 'q', docId: 'd', relevance: 1 }]);
    expect(issues).toHaveLength(1);
    expect(issues[0].line).toBe(2);
  });
});
