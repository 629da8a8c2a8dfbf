import { describe, expect, it } from 'vitest';
import { memorySource } from '../corpus/fixtures/memory-source.ts';
import { findDocuments } from './find-documents.ts';

const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ _id: `d${i}`, title: '', text: `text ${i}` })).join('\n');

describe('findDocuments', () => {
  it('returns the documents asked for, in the order asked, undefined for unknown ids', async () => {
    const docs = await findDocuments([memorySource('corpus.jsonl', lines)], {}, ['d2999', 'nope', 'd7']);
    expect(docs).toEqual([{ id: 'd2999', title: '', text: 'text 2999' }, undefined, { id: 'd7', title: '', text: 'text 7' }]);
  });

  it('stops reading once every document is found', async () => {
    const source = memorySource('corpus.jsonl', lines, { chunkSize: 4096 });
    const [doc] = await findDocuments([source], {}, ['d1']);
    expect(doc?.text).toBe('text 1');
    expect(source.stats.bytesPulled).toBeLessThan(new TextEncoder().encode(lines).length / 2);
  });
});
