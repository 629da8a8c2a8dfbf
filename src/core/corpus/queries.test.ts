import { describe, expect, it } from 'vitest';
import { IngestCollector } from './collector.ts';
import type { IngestBatch } from './ingest-types.ts';
import { ingestQueryRecords } from './queries.ts';
import type { SourceRecord } from './records.ts';

async function* groups(...items: SourceRecord[]) {
  yield items;
}

describe('ingestQueryRecords', () => {
  it('reads _id and text, answers as a string list, other fields as metadata', async () => {
    const batches: IngestBatch[] = [];
    const c = new IngestCollector({ onBatch: (b) => void batches.push(b) }, 10);
    c.beginFile('queries.jsonl', 'queries');
    await ingestQueryRecords(
      groups(
        { line: 1, record: { _id: 'q1', text: 'a', answers: ['x', 42] } },
        { line: 2, record: { _id: 'q2', text: 'b', answers: 'single' } },
        { line: 3, record: { _id: 'q3', text: 'c', answers: { odd: true }, title: 'kept' } },
        { line: 4, error: 'invalid JSON: boom' },
        { line: 5, record: { id: 'no-underscore', text: 'd' } },
      ),
      c,
    );
    await c.finish();
    expect(batches[0].queries).toEqual([
      { id: 'q1', text: 'a', answers: ['x', '42'] },
      { id: 'q2', text: 'b', answers: ['single'] },
      { id: 'q3', text: 'c', metadata: { answers: { odd: true }, title: 'kept' } },
    ]);
    expect(c.issues).toEqual([
      { file: 'queries.jsonl', line: 4, reason: 'invalid JSON: boom' },
      { file: 'queries.jsonl', line: 5, field: '_id', reason: "missing or empty id (field '_id')" },
    ]);
  });
});
