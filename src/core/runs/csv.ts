/** A CSV cell: text as is, numbers in JavaScript's shortest round-trip form, null/undefined as empty. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * One CSV field per RFC 4180: quoted when it holds a comma, a double quote, CR or LF (or starts or ends with
 * a space, which some readers trim), with inner quotes doubled.
 */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  const text = typeof cell === 'string' ? cell : String(cell);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text per RFC 4180: CRLF after every record, including the last. */
export function formatCsv(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
