import { describe, expect, it } from 'vitest';
import { IngestCollector, MAX_STORED_ISSUES } from './collector.ts';
import type { IngestBatch } from './ingest-types.ts';

function collector(batchSize = 2) {
  const batches: IngestBatch[] = [];
  const c = new IngestCollector({ onBatch: (b) => void batches.push(b) }, batchSize);
  return { c, batches };
}

describe('IngestCollector', () => {
  it('hands out batches of at most batchSize of each kind', async () => {
    const { c, batches } = collector(2);
    c.beginFile('a', 'documents');
    for (let i = 0; i < 5; i++) c.addDocument({ id: `d${i}`, title: '', text: 't' }, { line: i + 1 });
    c.addQuery({ id: 'q', text: 'x' });
    await c.drain();
    expect(batches.map((b) => b.documents.map((d) => d.id))).toEqual([['d0', 'd1'], ['d2', 'd3']]);
    expect(batches[0].queries).toEqual([{ id: 'q', text: 'x' }]);
    await c.finish();
    expect(batches.map((b) => b.documents.length)).toEqual([2, 2, 1]);
    expect(c.summary()).toMatchObject({ documents: 5, queries: 1, files: [{ path: 'a', kind: 'documents', records: 6, skipped: 0 }] });
  });

  it('keeps the first of two documents with one id and names the first line', () => {
    const { c } = collector();
    c.beginFile('a.jsonl', 'documents');
    expect(c.addDocument({ id: 'x', title: '', text: 'first' }, { line: 3, field: '_id' })).toBe(true);
    expect(c.addDocument({ id: 'x', title: '', text: 'second' }, { line: 9, field: '_id' })).toBe(false);
    c.beginFile('b.jsonl', 'documents');
    c.addDocument({ id: 'x', title: '', text: 'third' }, { line: 1, field: 'id' });
    expect(c.issues).toEqual([
      { file: 'a.jsonl', line: 9, field: '_id', reason: "duplicate document id 'x' (first seen on line 3; the first is kept)" },
      { file: 'b.jsonl', line: 1, field: 'id', reason: "duplicate document id 'x' (first seen on line 3 of a.jsonl; the first is kept)" },
    ]);
    expect(c.files.map((f) => [f.records, f.skipped])).toEqual([[1, 1], [0, 1]]);
  });

  it('rejects duplicate query ids and qrels naming unknown queries or documents', () => {
    const { c } = collector();
    c.beginFile('corpus.jsonl', 'corpus');
    c.addDocument({ id: 'd1', title: '', text: 't' }, { line: 1 });
    c.beginFile('queries.jsonl', 'queries');
    c.addQuery({ id: 'q1', text: 'x' }, { line: 1, field: '_id' });
    c.addQuery({ id: 'q1', text: 'y' }, { line: 2, field: '_id' });
    c.beginFile('qrels/test.tsv', 'qrels', 'test');
    expect(c.addQrel({ queryId: 'q1', docId: 'd1', relevance: 1 }, 2)).toBe(true);
    expect(c.addQrel({ queryId: 'q2', docId: 'd1', relevance: 1 }, 3)).toBe(false);
    expect(c.addQrel({ queryId: 'q1', docId: 'd2', relevance: 1 }, 4)).toBe(false);
    expect(c.issues).toEqual([
      { file: 'queries.jsonl', line: 2, field: '_id', reason: "duplicate query id 'q1' (first seen on line 1; the first is kept)" },
      { file: 'qrels/test.tsv', line: 3, field: 'query-id', reason: "unknown query id 'q2'" },
      { file: 'qrels/test.tsv', line: 4, field: 'corpus-id', reason: "unknown document id 'd2'" },
    ]);
    expect(c.files[2]).toEqual({ path: 'qrels/test.tsv', kind: 'qrels', split: 'test', records: 1, skipped: 2 });
  });

  it(`stores the first ${MAX_STORED_ISSUES} issues and counts all`, () => {
    const { c } = collector();
    c.beginFile('f', 'documents');
    for (let i = 1; i <= 2500; i++) c.reject('bad', { line: i });
    expect(c.issueCount).toBe(2500);
    expect(c.issues).toHaveLength(1000);
    expect(c.issues[999].line).toBe(1000);
    expect(c.files[0].skipped).toBe(2500);
  });

  it('marks an error thrown by onBatch so it is not mistaken for a file problem', async () => {
    const failure = new Error('disk full');
    const c = new IngestCollector({ onBatch: () => Promise.reject(failure) }, 1);
    c.beginFile('f', 'documents');
    c.addDocument({ id: 'a', title: '', text: 't' });
    await expect(c.drain()).rejects.toBe(failure);
    expect(c.handlerError).toBe(failure);
  });
});
