import { readCsvRecords } from './csv.ts';
import { guessFieldMapping, recordFieldPaths, type FieldMapping } from './field-mapping.ts';
import { readJsonlRecords } from './jsonl.ts';
import { isRejected } from './records.ts';
import { extension, sourcePath, type FileSource } from './source.ts';

export interface SniffResult {
  /** The file's format, from its extension. */
  format: 'jsonl' | 'csv' | 'tsv';
  /** Field paths seen in the sample (nested objects as dotted paths), in first-seen order. */
  fields: string[];
  /** The first records, as parsed. */
  sample: Record<string, unknown>[];
  /** The mapping `ingest` would guess, or null if it cannot. */
  suggested: FieldMapping | null;
}

/** Reads the first records of a JSONL/CSV/TSV file so the UI can offer a field mapping. */
export async function sniffFields(source: FileSource, maxRecords = 20, signal?: AbortSignal): Promise<SniffResult> {
  const path = sourcePath(source);
  const ext = extension(path);
  const format = ext === 'jsonl' || ext === 'ndjson' ? 'jsonl' : ext === 'csv' || ext === 'tsv' ? ext : null;
  if (format === null) throw new Error(`cannot read fields from ${path}: expected a .jsonl, .csv or .tsv file`);
  const records =
    format === 'jsonl' ? readJsonlRecords(source, { signal }) : readCsvRecords(source, format === 'tsv' ? { delimiter: '\t' } : {}, { signal });
  const sample: Record<string, unknown>[] = [];
  const fields = new Set<string>();
  if (maxRecords < 1) throw new RangeError(`maxRecords must be >= 1, not ${maxRecords}`);
  outer: for await (const group of records) {
    for (const item of group) {
      if (isRejected(item)) continue;
      const { record } = item;
      sample.push(record);
      for (const field of recordFieldPaths(record)) fields.add(field);
      if (sample.length >= maxRecords) break outer;
    }
  }
  const list = [...fields];
  return { format, fields: list, sample, suggested: guessFieldMapping(list) };
}
