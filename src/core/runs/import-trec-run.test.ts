import { describe, expect, it } from 'vitest';
import { buildQrelsMap } from '../eval/evaluate.ts';
import { importTrecRun, TrecImportError } from './import-trec-run.ts';
import { exportRunTrec, runTag } from './run-trec.ts';

const qrels = buildQrelsMap([
  { queryId: 'q1', docId: 'd2', relevance: 1 },
  { queryId: 'q2', docId: 'd1', relevance: 1 },
]);
const options = { fileName: 'other-system.run', corpusId: 'c1', corpusName: 'Sample', queryIds: ['q1', 'q2', 'q3'], qrels, measures: ['RR@10'] };

describe('importTrecRun', () => {
  it('scores the file against the qrels, reports bad lines and unknown queries', () => {
    const text = [
      'q1 Q0 d1 1 9.5 sys',
      'q1 Q0 d2 2 8 sys',
      'q1 Q0 d3 three 7 sys',
      'q9 Q0 d1 1 1 sys',
      'q1 Q0 d4 4',
      '',
    ].join('\n');
    const { record, issues, unknownQueryIds, missingQueryCount } = importTrecRun(text, options);
    expect(issues.map((i) => i.line)).toEqual([3, 5]);
    expect(issues[0]!.reason).toBe("rank 'three' is not a number");
    expect(unknownQueryIds).toEqual(['q9']);
    expect(missingQueryCount).toBe(2);
    expect(record.name).toBe('other-system');
    expect(record.pipeline).toEqual({ kind: 'imported', fileName: 'other-system.run' });
    // q1: relevant at rank 2 → 0.5; q2 missing from the file → 0.
    expect(record.metrics!.perQuery).toEqual({ q1: { 'RR@10': 0.5 }, q2: { 'RR@10': 0 } });
    expect(record.metrics!.aggregate['RR@10']).toBe(0.25);
    expect(record.elapsedMs).toBeNull();
    expect(record.k).toBe(2);
  });

  it('throws with the first bad line when nothing can be read', () => {
    expect(() => importTrecRun('not a run\n', options)).toThrow(TrecImportError);
    expect(() => importTrecRun('a b c\n', options)).toThrow('No ranking could be read from other-system.run; 1 line(s) could not be read, the first: line 1: expected 6 fields');
  });

  it('exports a saved run as TREC text tagged with its name', () => {
    const { record } = importTrecRun('q1 Q0 d2 1 2 x\nq1 Q0 d1 2 3 x\n', { ...options, name: 'My run' });
    expect(exportRunTrec(record)).toBe('q1 Q0 d1 1 3 My_run\nq1 Q0 d2 2 2 My_run\n');
    expect(runTag('  ')).toBe('run');
  });
});
