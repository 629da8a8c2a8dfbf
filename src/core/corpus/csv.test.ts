import { describe, expect, it } from 'vitest';
import { columnNames, readCsvRecords, readCsvRows, type CsvOptions, type CsvRow } from './csv.ts';
import { memorySource } from './fixtures/memory-source.ts';
import { isRejected, type SourceRecord } from './records.ts';

async function rows(content: string, options: CsvOptions = {}, chunkSize = 7): Promise<CsvRow[]> {
  const out: CsvRow[] = [];
  for await (const group of readCsvRows(memorySource('f.csv', content, { chunkSize }), options)) out.push(...group);
  return out;
}

async function records(content: string, options: CsvOptions = {}, chunkSize = 7) {
  const items: SourceRecord[] = [];
  for await (const group of readCsvRecords(memorySource('f.csv', content, { chunkSize }), options)) items.push(...group);
  return { records: items.filter((i) => !isRejected(i)), issues: items.filter(isRejected).map((i) => ({ line: i.line, reason: i.error })) };
}

// Every chunking: tiny byte chunks and a parser run per chunk, or one run over the whole text.
const chunkings: Array<[number, CsvOptions]> = [
  [1, { parseChunkChars: 1 }],
  [7, { parseChunkChars: 1 }],
  [7, { parseChunkChars: 10 }],
  [1 << 16, {}],
];

describe('readCsvRows', () => {
  const csv = 'id,title,text\n1,"A, a","one line"\n2,B,"two\nlines with ""quotes"""\n\n3,C,"three\nmore\nlines"\n4,D,last';

  it('parses quoted fields with delimiters, escaped quotes and line breaks; lines are the first line of each row', async () => {
    for (const [chunkSize, options] of chunkings) {
      expect(await rows(csv, options, chunkSize)).toEqual([
        { line: 1, fields: ['id', 'title', 'text'] },
        { line: 2, fields: ['1', 'A, a', 'one line'] },
        { line: 3, fields: ['2', 'B', 'two\nlines with "quotes"'] },
        { line: 6, fields: ['3', 'C', 'three\nmore\nlines'] },
        { line: 9, fields: ['4', 'D', 'last'] },
      ]);
    }
  });

  it('accepts CRLF line breaks (quoted or not) and a trailing line break', async () => {
    const crlf = 'id,text\r\n1,"a\r\nb"\r\n2,plain\r\n3,"q"\r\n';
    for (const [chunkSize, options] of chunkings) {
      expect(await rows(crlf, options, chunkSize)).toEqual([
        { line: 1, fields: ['id', 'text'] },
        { line: 2, fields: ['1', 'a\r\nb'] },
        { line: 4, fields: ['2', 'plain'] },
        { line: 5, fields: ['3', 'q'] },
      ]);
    }
  });

  it('guesses the delimiter of a .csv file', async () => {
    const semicolons = 'id;text\n1;"x; y"\n2;z\n';
    expect((await rows(semicolons)).map((r) => r.fields)).toEqual([['id', 'text'], ['1', 'x; y'], ['2', 'z']]);
    const tabs = 'id\ttext\n1\tx, y\n2\tz, w\n';
    expect((await rows(tabs)).map((r) => r.fields)).toEqual([['id', 'text'], ['1', 'x, y'], ['2', 'z, w']]);
  });

  it('guesses the delimiter from the first lines even when the file is read in tiny parser runs', async () => {
    const many = 'id|text\n' + Array.from({ length: 30 }, (_, i) => `${i}|t${i}`).join('\n');
    const parsed = await rows(many, { parseChunkChars: 1 }, 3);
    expect(parsed).toHaveLength(31);
    expect(parsed[30]).toEqual({ line: 31, fields: ['29', 't29'] });
  });

  it('reports a malformed quote on the line where its row starts and resumes on the next line', async () => {
    for (const [chunkSize, options] of chunkings) {
      const parsed = await rows('id,text\n1,"broken"x\n2,ok\n3,"fine"\n', { ...options, delimiter: ',' }, chunkSize);
      expect(parsed.map((r) => [r.line, r.error === undefined ? r.fields : 'error'])).toEqual([
        [1, ['id', 'text']],
        [2, 'error'],
        [3, ['2', 'ok']],
        [4, ['3', 'fine']],
      ]);
    }
  });

  it('reports a quoted field never closed and keeps the lines after it', async () => {
    const parsed = await rows('id,text\n1,ok\n2,"never closed\n3,after\n4,end', { delimiter: ',' });
    expect(parsed).toEqual([
      { line: 1, fields: ['id', 'text'] },
      { line: 2, fields: ['1', 'ok'] },
      { line: 3, fields: [], error: 'a quoted field is never closed (unbalanced quote)' },
      { line: 4, fields: ['3', 'after'] },
      { line: 5, fields: ['4', 'end'] },
    ]);
  });

  it('gives up on a row longer than maxRowChars without holding the rest of the file', async () => {
    const body = Array.from({ length: 200 }, (_, i) => `${i + 3},v${i}`).join('\n');
    const parsed = await rows(`id,text\n2,"open\n${body}\n`, { delimiter: ',', parseChunkChars: 1, maxRowChars: 50 }, 7);
    expect(parsed[1]).toMatchObject({ line: 2, error: expect.stringContaining('longer than 50 characters') });
    expect(parsed.slice(2).map((r) => r.line)).toEqual(Array.from({ length: 200 }, (_, i) => i + 3));
    expect(parsed.at(-1)).toEqual({ line: 202, fields: ['202', 'v199'] });
  });
});

describe('readCsvRecords', () => {
  it('keys rows by the header and rejects rows with the wrong number of fields', async () => {
    const { records: got, issues } = await records('\uFEFFid,text,extra\n1,a,x\n2,b\n3,"c\nc",z,w\n4,d,y\n');
    expect(got).toEqual([
      { line: 2, record: { id: '1', text: 'a', extra: 'x' } },
      { line: 6, record: { id: '4', text: 'd', extra: 'y' } },
    ]);
    expect(issues).toEqual([
      { line: 3, reason: 'the row has 2 fields but the header has 3' },
      { line: 4, reason: 'the row has 4 fields but the header has 3' },
    ]);
  });

  it('reads .tsv content with a tab delimiter', async () => {
    const { records: got } = await records('id\ttext\n1\ta "quoted" word, here\n', { delimiter: '\t' });
    expect(got).toEqual([{ line: 2, record: { id: '1', text: 'a "quoted" word, here' } }]);
  });
});

describe('columnNames', () => {
  it('names empty columns and makes repeated names unique', () => {
    expect(columnNames([' id ', '', 'text', 'text', 'text'])).toEqual(['id', 'column2', 'text', 'text_1', 'text_2']);
  });
});
