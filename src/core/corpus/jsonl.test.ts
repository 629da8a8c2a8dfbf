import { describe, expect, it } from 'vitest';
import { memorySource } from './fixtures/memory-source.ts';
import { readJsonlRecords } from './jsonl.ts';
import { isRejected, type SourceRecord } from './records.ts';

async function read(content: string, chunkSize = 7) {
  const items: SourceRecord[] = [];
  for await (const group of readJsonlRecords(memorySource('f.jsonl', content, { chunkSize }))) items.push(...group);
  return { records: items.filter((i) => !isRejected(i)), issues: items.filter(isRejected).map((i) => ({ line: i.line, reason: i.error })) };
}

describe('readJsonlRecords', () => {
  it('parses one object per line with its line number, skipping blank lines', async () => {
    const { records, issues } = await read('{"a":1}\n\n  \n{"b":"é"}');
    expect(records).toEqual([
      { line: 1, record: { a: 1 } },
      { line: 4, record: { b: 'é' } },
    ]);
    expect(issues).toEqual([]);
  });

  it('rejects invalid JSON with the parser message, and non-objects', async () => {
    const { records, issues } = await read('{"a":1\n[1,2]\n"s"\nnull\n{"ok":true}\n');
    expect(records).toEqual([{ line: 5, record: { ok: true } }]);
    expect(issues.map((i) => i.line)).toEqual([1, 2, 3, 4]);
    let parserMessage = '';
    try {
      JSON.parse('{"a":1');
    } catch (e) {
      parserMessage = (e as Error).message;
    }
    expect(issues[0].reason).toBe(`invalid JSON: ${parserMessage}`);
    expect(issues[1].reason).toContain('not a JSON object (found an array)');
    expect(issues[2].reason).toContain('found a string');
    expect(issues[3].reason).toContain('found null');
  });
});
