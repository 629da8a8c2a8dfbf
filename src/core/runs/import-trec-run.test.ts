import { describe, expect, it } from 'vitest';
import { buildQrelsMap } from '../eval/index.ts';
import { findUnknownDocuments, importTrecRun, TrecImportError } from './import-trec-run.ts';
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

  it('decodes a UTF-16 file with CR-only line breaks', () => {
    const text = 'q1 Q0 d2 1 2 sys\rq2 Q0 d1 1 1 sys\r';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) bytes[2 + 2 * i] = text.charCodeAt(i);
    const { record, issues } = importTrecRun(bytes, options);
    expect(issues).toEqual([]);
    expect(record.metrics?.aggregate['RR@10']).toBe(1);
  });

  it('counts the document ids that the corpus does not hold', async () => {
    const { record } = importTrecRun('q1 Q0 d1 1 3 s\nq1 Q0 ghost 2 2 s\nq2 Q0 ghost 1 2 s\nq2 Q0 d2 2 1 s\nq2 Q0 spook 3 0 s\n', options);
    const corpus = new Set(['d1', 'd2']);
    const asked: string[][] = [];
    const unknown = await findUnknownDocuments(record, async (ids) => {
      asked.push([...ids]);
      return ids.map((id) => corpus.has(id));
    });
    expect(unknown).toEqual({ count: 2, results: 3, examples: ['ghost', 'spook'] });
    expect(asked.flat().sort()).toEqual(['d1', 'd2', 'ghost', 'spook']);
  });
});
