/** Helpers shared by the run and qrels readers. */
import { LineSplitter, decodeTextBytes, LineBreakNormalizer, type TextEncodingChoice } from '../corpus/index.ts';
import type { LineIssue } from './types.ts';

/** Splits text into lines (LF, CRLF or CR) with the splitter every reader uses; a final newline does not make an extra line. */
export function splitLines(text: string): string[] {
  return fileLines(text).lines;
}

/** The lines of a file as text or bytes, and its unreadable lines. */
export interface FileLines {
  /** Every line; a line that could not be decoded is '' (so later lines keep their numbers). */
  lines: string[];
  /** Lines that are not valid UTF-8. */
  issues: LineIssue[];
}

/**
 * Splits a file into lines. Bytes are decoded like every file the workbench reads (byte-order mark → UTF-8 or
 * UTF-16, else UTF-8 or `encoding`; a binary file throws a BinaryFileError).
 */
export function fileLines(input: string | Uint8Array, encoding?: TextEncodingChoice): FileLines {
  const decoded = typeof input === 'string' ? { text: new LineBreakNormalizer().normalize(input, true), badLines: [] } : decodeTextBytes(input, encoding);
  const splitter = new LineSplitter();
  const lines: string[] = [];
  const issues: LineIssue[] = [];
  for (const line of [...splitter.push(decoded.text, decoded.badLines), ...splitter.finish()]) {
    lines.push(line.text);
    if (line.problem !== undefined) issues.push({ line: line.line, reason: line.problem });
  }
  return { lines, issues };
}

/** The whitespace-separated fields of a line (empty for a blank line). A leading BOM is ignored. */
export function splitFields(line: string): string[] {
  const trimmed = line.replace(/^\uFEFF/, '').trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** Parses a plain decimal number (`3`, `-0.5`, `1e-7`); anything else (hex, `NaN`, `inf`, overflow) is null. */
export function parseDecimal(field: string): number | null {
  if (!DECIMAL.test(field)) return null;
  const value = Number(field);
  return Number.isFinite(value) ? value : null;
}
