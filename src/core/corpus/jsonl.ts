import { isPlainObject } from './field-mapping.ts';
import { readLines, type ReadOptions } from './lines.ts';
import type { SourceRecord } from './records.ts';
import type { FileSource } from './source.ts';

/** Reads a JSON Lines file: one object per line; blank lines are ignored, bad lines are rejected. */
export async function* readJsonlRecords(source: FileSource, options: ReadOptions = {}): AsyncGenerator<SourceRecord[]> {
  for await (const lines of readLines(source, { ...options, skipEmpty: true })) {
    const records: SourceRecord[] = [];
    for (const { text, line, problem } of lines) {
      if (problem !== undefined) {
        records.push({ line, error: problem });
        continue;
      }
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        records.push({ line, error: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` });
        continue;
      }
      if (isPlainObject(value)) records.push({ line, record: value });
      else records.push({ line, error: `record is not a JSON object (found ${describe(value)})` });
    }
    yield records;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
