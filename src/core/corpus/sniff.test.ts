import { describe, expect, it } from 'vitest';
import { jsonl } from './fixtures/collect.ts';
import { memorySource } from './fixtures/memory-source.ts';
import { sniffFields } from './sniff.ts';

describe('sniffFields', () => {
  it('lists JSONL fields (nested as dotted paths) and suggests a mapping', async () => {
    const source = memorySource('d.jsonl', jsonl({ docid: 'a', meta: { title: 't' }, contents: 'x' }, 'broken', { docid: 'b', contents: 'y', lang: 'en' }));
    const result = await sniffFields(source);
    expect(result).toEqual({
      format: 'jsonl',
      fields: ['docid', 'meta.title', 'contents', 'lang'],
      sample: [
        { docid: 'a', meta: { title: 't' }, contents: 'x' },
        { docid: 'b', contents: 'y', lang: 'en' },
      ],
      suggested: { id: 'docid', text: 'contents' },
    });
  });

  it('reads the header and first rows of CSV and TSV files', async () => {
    const csv = await sniffFields(memorySource('d.csv', 'Id,Title,Body\n1,"A, b",c\n2,d,e\n', { chunkSize: 4 }), 1);
    expect(csv).toEqual({ format: 'csv', fields: ['Id', 'Title', 'Body'], sample: [{ Id: '1', Title: 'A, b', Body: 'c' }], suggested: { id: 'Id', title: 'Title', text: 'Body' } });
    const tsv = await sniffFields(memorySource('d.tsv', 'key\tvalue\nk\tv\n'));
    expect(tsv).toMatchObject({ format: 'tsv', fields: ['key', 'value'], suggested: null });
  });

  it('stops reading after the sample', async () => {
    const big = jsonl(...Array.from({ length: 20000 }, (_, i) => ({ id: i, text: 'some text here' })));
    const source = memorySource('big.jsonl', big, { chunkSize: 4096 });
    const result = await sniffFields(source, 5);
    expect(result.sample).toHaveLength(5);
    expect(source.stats.bytesPulled).toBeLessThan(10000);
    expect(source.stats.cancelled).toBe(true);
  });

  it('refuses other file types', async () => {
    await expect(sniffFields(memorySource('a.txt', 'x'))).rejects.toThrow('expected a .jsonl, .csv or .tsv file');
  });
});
