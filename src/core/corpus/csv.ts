import Papa from 'papaparse';
import { readDecoded, type ReadOptions } from './lines.ts';
import { INVALID_UTF8_REASON } from './text-decoding.ts';
import type { SourceRecord } from './records.ts';
import type { FileSource } from './source.ts';
import { idRecord } from '../ids/index.ts';

export interface CsvOptions {
  /** Field delimiter; guessed from the first lines when absent (one of `,` `\t` `;` `|`, else `,`). */
  delimiter?: string;
  /** Decoded characters gathered before a parser run (an unfinished row is parsed again with the next run). Default 65536. */
  parseChunkChars?: number;
  /** Longest row accepted, in characters; a longer unfinished row is taken for an unbalanced quote. Default 16 M. */
  maxRowChars?: number;
}

/** One row of a delimited file. */
export interface CsvRow {
  /** 1-based line on which the row starts (a quoted field may span several lines). */
  line: number;
  fields: string[];
  /** The parser's complaint about the row (e.g. a malformed quote), if any. */
  error?: string;
}

/** A row as the step callback sees it. */
interface ParsedRow extends CsvRow {
  /** Offset of the row in the run's input. */
  start: number;
}

const GUESS_MAX_CHARS = 65536;
const GUESS_LINES = 10;
const GUESSABLE_DELIMITERS = [',', '\t', ';', '|'];

/**
 * Streams the rows of a CSV/TSV file through papaparse's chunk parser: each run parses the unfinished row carried
 * over from the previous run plus the newly decoded text, and leaves the last, possibly incomplete row for the next.
 * A run waits for at least as much new text as is carried, so a long row is not re-parsed over and over. An
 * unbalanced quote (a quoted field never closed, or a row over `maxRowChars`) costs only the line where the row
 * starts: that line is reported and parsing resumes on the next line. Empty lines are skipped; LF, CRLF and lone CR work.
 * A row on a line that is not valid UTF-8 is reported and skipped.
 */
export async function* readCsvRows(source: FileSource, options: CsvOptions = {}, read: ReadOptions = {}): AsyncGenerator<CsvRow[]> {
  const parseChunkChars = Math.max(1, options.parseChunkChars ?? 65536);
  const maxRowChars = options.maxRowChars ?? 16 * 1024 * 1024;
  let delimiter = options.delimiter;
  let parser: Papa.Parser | undefined;
  let pending: string[] = [];
  let pendingChars = 0;
  let pendingLineBreaks = 0;
  let carry = '';
  let carryLine = 1;
  // State of the current parser run, read by the step callback.
  let input = '';
  let rowStart = 0;
  let line = 1;
  let rows: ParsedRow[] = [];
  let broken: ParsedRow | undefined;
  const badLines = new Set<number>();

  const step = (result: Papa.ParseStepResult<string[]>) => {
    const start = rowStart;
    const end = result.meta.cursor;
    const first = line;
    line += countLineBreaks(input, start, end);
    rowStart = end;
    const fields = (result.data as unknown as string[][])[0] ?? [''];
    const last = fields.length - 1;
    if (fields[last].endsWith('\r')) fields[last] = fields[last].slice(0, -1);
    const row: ParsedRow = { line: first, fields, start };
    if (badLines.size > 0 && coversBadLine(first, Math.max(first, line - 1))) {
      rows.push({ line: first, fields: [], start, error: INVALID_UTF8_REASON });
    } else if (result.errors.length > 0) {
      const unterminated = result.errors.some((e) => e.code === 'MissingQuotes');
      row.error = unterminated ? 'a quoted field is never closed (unbalanced quote)' : result.errors.map((e) => e.message).join('; ');
      broken = row;
      parser?.abort();
    } else if (fields.length > 1 || fields[0] !== '') {
      rows.push(row);
    }
  };

  const run = (final: boolean): CsvRow[] => {
    delimiter ??= guessDelimiter(pending.join(''));
    let text = carry + pending.join('');
    pending = [];
    pendingChars = 0;
    pendingLineBreaks = 0;
    const out: CsvRow[] = [];
    for (;;) {
      // An aborted papaparse Parser stays aborted, so a new one is made after each broken row.
      parser ??= new Papa.Parser({ delimiter, newline: '\n', step } as Papa.ParseConfig);
      input = text;
      rowStart = 0;
      line = carryLine;
      rows = [];
      broken = undefined;
      const consumed = (parser.parse(input, 0, !final) as Papa.ParseResult<string[]>).meta.cursor;
      out.push(...rows.map(publicRow));
      const brokenRow = broken as ParsedRow | undefined; // set by the step callback
      if (brokenRow) {
        // Report the row on its first line and parse again from the next line.
        parser = undefined;
        out.push({ line: brokenRow.line, fields: [], error: brokenRow.error });
        const next = input.indexOf('\n', brokenRow.start);
        carry = '';
        carryLine = brokenRow.line + 1;
        if (next < 0) break;
        text = input.slice(next + 1);
        continue;
      }
      carry = final ? '' : input.slice(consumed);
      carryLine = line;
      const next = carry.length > maxRowChars ? carry.indexOf('\n') : -1;
      if (next < 0) break;
      out.push({ line: carryLine, fields: [], error: `the row is longer than ${maxRowChars} characters (unbalanced quote?)` });
      text = carry.slice(next + 1);
      carry = '';
      carryLine++;
    }
    input = '';
    return out;
  };

  const ready = (): boolean => {
    if (pendingChars < Math.max(parseChunkChars, carry.length)) return false;
    if (delimiter !== undefined) return true;
    return pendingChars >= GUESS_MAX_CHARS || pendingLineBreaks > GUESS_LINES;
  };

  const coversBadLine = (from: number, to: number) => {
    let found = false;
    for (const n of badLines) {
      if (n >= from && n <= to) found = true;
      if (n < from) badLines.delete(n);
    }
    return found;
  };

  for await (const { text, badLines: bad } of readDecoded(source, { ...read, keepCrlf: true })) {
    for (const n of bad) badLines.add(n);
    if (!text) continue;
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

function publicRow({ line, fields, error }: ParsedRow): CsvRow {
  return error === undefined ? { line, fields } : { line, fields, error };
}

/** Reads a delimited file with a header row into records keyed by column name (values are strings). */
export async function* readCsvRecords(source: FileSource, options: CsvOptions = {}, read: ReadOptions = {}): AsyncGenerator<SourceRecord[]> {
  let header: string[] | undefined;
  for await (const rows of readCsvRows(source, options, read)) {
    const records: SourceRecord[] = [];
    for (const { line, fields, error } of rows) {
      if (error !== undefined) {
        records.push({ line, error: error === INVALID_UTF8_REASON ? error : `malformed CSV row: ${error}` });
        continue;
      }
      if (!header) {
        header = columnNames(fields);
        continue;
      }
      if (fields.length !== header.length) {
        records.push({ line, error: `the row has ${fields.length} fields but the header has ${header.length}` });
        continue;
      }
      const nulColumn = fields.findIndex((field) => field.includes('\0'));
      if (nulColumn >= 0) {
        records.push({ line, error: `the row holds a NUL byte in column '${header[nulColumn]}', so it is not read` });
        continue;
      }
      const record = idRecord<unknown>();
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
  const result = Papa.parse<string[]>(sample, { preview: GUESS_LINES, delimitersToGuess: GUESSABLE_DELIMITERS, skipEmptyLines: true });
  return result.meta.delimiter || ',';
}

function countLineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
