import Papa from 'papaparse';
import { readText, type ReadOptions } from './lines.ts';
import type { RejectRecord, SourceRecord } from './records.ts';
import type { FileSource } from './source.ts';

export interface CsvOptions {
  /** Field delimiter; guessed from the first lines when absent (one of `,` `\t` `;` `|`, else `,`). */
  delimiter?: string;
  /** Decoded characters gathered before each parser run (an unfinished row is parsed again with the next run). Default 65536. */
  parseChunkChars?: number;
}

/** One row of a delimited file. */
export interface CsvRow {
  /** 1-based line on which the row starts (a quoted field may span several lines). */
  line: number;
  fields: string[];
  /** The parser's complaint about the row (e.g. a malformed quote), if any. */
  error?: string;
}

const GUESS_MAX_CHARS = 65536;
const GUESS_LINES = 10;
const GUESSABLE_DELIMITERS = [',', '\t', ';', '|'];

/**
 * Streams the rows of a CSV/TSV file through papaparse's chunk parser: each run parses the unfinished row carried
 * over from the previous run plus the newly decoded text, and leaves the last, possibly incomplete row for the next.
 * Empty lines are skipped. LF and CRLF line breaks are both accepted.
 */
export async function* readCsvRows(source: FileSource, options: CsvOptions = {}, read: ReadOptions = {}): AsyncGenerator<CsvRow[]> {
  const parseChunkChars = Math.max(1, options.parseChunkChars ?? 65536);
  let delimiter = options.delimiter;
  let parser: Papa.Parser | undefined;
  let pending: string[] = [];
  let pendingChars = 0;
  let pendingLineBreaks = 0;
  let carry = '';
  let carryLine = 1;
  // State of the current run, read by the step callback.
  let input = '';
  let rowStart = 0;
  let line = 1;
  let rows: CsvRow[] = [];

  const step = (result: Papa.ParseStepResult<string[]>) => {
    const end = result.meta.cursor;
    const first = line;
    line += countLineBreaks(input, rowStart, end);
    rowStart = end;
    const fields = (result.data as unknown as string[][])[0] ?? [''];
    const last = fields.length - 1;
    if (fields[last].endsWith('\r')) fields[last] = fields[last].slice(0, -1);
    if (fields.length === 1 && fields[0] === '' && result.errors.length === 0) return;
    const row: CsvRow = { line: first, fields };
    if (result.errors.length > 0) row.error = result.errors.map((e) => e.message).join('; ');
    rows.push(row);
  };

  const run = (final: boolean): CsvRow[] => {
    delimiter ??= guessDelimiter(pending.join(''));
    parser ??= new Papa.Parser({ delimiter, newline: '\n', step } as Papa.ParseConfig);
    input = carry + pending.join('');
    pending = [];
    pendingChars = 0;
    pendingLineBreaks = 0;
    rowStart = 0;
    line = carryLine;
    rows = [];
    const result = parser.parse(input, 0, !final) as Papa.ParseResult<string[]>;
    carry = final ? '' : input.slice(result.meta.cursor);
    carryLine = line;
    input = '';
    return rows;
  };

  const ready = (): boolean => {
    if (pendingChars < parseChunkChars) return false;
    if (delimiter !== undefined) return true;
    return pendingChars >= GUESS_MAX_CHARS || pendingLineBreaks > GUESS_LINES;
  };

  for await (const text of readText(source, read)) {
    pending.push(text);
    pendingChars += text.length;
    if (delimiter === undefined) pendingLineBreaks += countLineBreaks(text, 0, text.length);
    if (ready()) {
      const parsed = run(false);
      if (parsed.length > 0) yield parsed;
    }
  }
  const parsed = run(true);
  if (parsed.length > 0) yield parsed;
}

/** Reads a delimited file with a header row into records keyed by column name (values are strings). */
export async function* readCsvRecords(
  source: FileSource,
  reject: RejectRecord,
  options: CsvOptions = {},
  read: ReadOptions = {},
): AsyncGenerator<SourceRecord[]> {
  let header: string[] | undefined;
  for await (const rows of readCsvRows(source, options, read)) {
    const records: SourceRecord[] = [];
    for (const { line, fields, error } of rows) {
      if (!header) {
        header = columnNames(fields);
        continue;
      }
      if (error !== undefined) {
        reject(`malformed CSV row: ${error}`, { line });
        continue;
      }
      if (fields.length !== header.length) {
        reject(`the row has ${fields.length} fields but the header has ${header.length}`, { line });
        continue;
      }
      const record: Record<string, unknown> = {};
      header.forEach((name, i) => (record[name] = fields[i]));
      records.push({ line, record });
    }
    yield records;
  }
}

/** Header names, trimmed; an empty name becomes `column<n>`, a repeated one gets a `_<k>` suffix. */
export function columnNames(header: string[]): string[] {
  const used = new Set<string>();
  return header.map((raw, i) => {
    const base = raw.trim() || `column${i + 1}`;
    let name = base;
    for (let k = 1; used.has(name); k++) name = `${base}_${k}`;
    used.add(name);
    return name;
  });
}

function guessDelimiter(sample: string): string {
  const result = Papa.parse<string[]>(sample, { preview: GUESS_LINES, delimitersToGuess: GUESSABLE_DELIMITERS });
  return result.meta.delimiter || ',';
}

function countLineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
