/** Helpers shared by the run and qrels readers. */

/** Splits text into lines (LF, CRLF or CR); a final newline does not make an extra line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
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
