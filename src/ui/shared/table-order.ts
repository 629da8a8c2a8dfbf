/** A cell's value as a table sorts and filters it; null and undefined mean "no value". */
export type CellValue = string | number | null | undefined;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * Ascending order of two cell values: numbers by value, text in natural order (`q2` before `q10`), a number before
 * text, no value after everything (the table reverses the whole order for descending, so that stays symmetric).
 */
export function compareCellValues(a: CellValue, b: CellValue): number {
  const aMissing = a === null || a === undefined || (typeof a === 'number' && Number.isNaN(a));
  const bMissing = b === null || b === undefined || (typeof b === 'number' && Number.isNaN(b));
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return collator.compare(a, b);
}

/** The words of a filter box, lower-cased; a row matches when every word occurs in one of its values. */
export function filterWords(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether a row whose filterable values are `values` matches every word of `words`. */
export function rowMatches(values: readonly CellValue[], words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const texts = values.filter((v) => v !== null && v !== undefined).map((v) => String(v).toLowerCase());
  return words.every((w) => texts.some((t) => t.includes(w)));
}
