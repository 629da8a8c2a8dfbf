import { describe, expect, it } from 'vitest';
import { IngestCollector } from './collector.ts';
import type { IngestBatch } from './ingest-types.ts';
import { GUESS_RECORDS, ingestRecordDocuments, type SourceRecord } from './records.ts';

describe('ingestRecordDocuments', () => {
  it('guesses the mapping from the first readable record and keeps issues in line order', async () => {
    const batches: IngestBatch[] = [];
    const c = new IngestCollector({ onBatch: (b) => void batches.push(b) }, 10);
    c.beginFile('f.jsonl', 'documents');
    async function* records(): AsyncGenerator<SourceRecord[]> {
      yield [{ line: 1, error: 'invalid JSON: x' }, { line: 2, record: { docid: 'a', passage: 'p', extra: 1 } }];
      yield [{ line: 3, record: { docid: 'b' } }, { line: 4, record: { docid: 'c', passage: 'q' } }];
    }
    await ingestRecordDocuments(records(), undefined, c);
    await c.finish();
    expect(batches[0].documents).toEqual([
      { id: 'a', title: '', text: 'p', metadata: { extra: 1 } },
      { id: 'c', title: '', text: 'q' },
    ]);
    expect(c.issues.map((i) => [i.line, i.field])).toEqual([
      [1, undefined],
      [3, 'passage'],
    ]);
  });

  it('waits for a record whose fields allow a guess', async () => {
    const batches: IngestBatch[] = [];
    const c = new IngestCollector({ onBatch: (b) => void batches.push(b) }, 10);
    c.beginFile('f.jsonl', 'documents');
    async function* records(): AsyncGenerator<SourceRecord[]> {
      yield [{ line: 1, record: { id: 'a', note: 'no text field' } }, { line: 2, error: 'invalid JSON: x' }];
      yield [{ line: 3, record: { id: 'b', text: 'B' } }];
    }
    await ingestRecordDocuments(records(), undefined, c);
    await c.finish();
    expect(batches[0].documents).toEqual([{ id: 'b', title: '', text: 'B' }]);
    expect(c.issues.map((i) => [i.line, i.field])).toEqual([
      [2, undefined],
      [1, 'text'],
    ]);
  });

  it('stops reading a file whose mapping cannot be guessed', async () => {
    const c = new IngestCollector({ onBatch: () => undefined }, 10);
    c.beginFile('f.jsonl', 'documents');
    let stopped = false;
    let groupsRead = 0;
    async function* records(): AsyncGenerator<SourceRecord[]> {
      try {
        for (;;) {
          groupsRead++;
          yield [{ line: groupsRead, record: { name: 'n', body: 'b' } }];
        }
      } finally {
        stopped = true;
      }
    }
    await ingestRecordDocuments(records(), undefined, c);
    expect(stopped).toBe(true);
    expect(groupsRead).toBe(GUESS_RECORDS);
    expect(c.issueCount).toBe(1);
    expect(c.issues[0].reason).toContain('found no id field (_id, id, docid, doc_id)');
  });
});
