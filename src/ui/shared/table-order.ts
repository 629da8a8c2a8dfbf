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

const NUMBER = String.raw`-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?`;
const COMPARISON = new RegExp(`^(>=|<=|>|<|=)\\s*(${NUMBER})$`, 'i');
const RANGE = new RegExp(`^(${NUMBER})\\s*\\.\\.\\s*(${NUMBER})$`, 'i');

/**
 * Whether a cell passes its column's filter box: `> 0.5`, `<= 3`, `= 1` compare a number cell; `0.2..0.4` keeps the
 * numbers in that range (both ends included); anything else keeps the cells whose text holds every word of it. A
 * comparison or range never matches a cell without a number; an empty box matches every cell.
 */
export function cellMatchesFilter(value: CellValue, filter: string): boolean {
  const text = filter.trim();
  if (text === '') return true;
  const comparison = COMPARISON.exec(text);
  const range = comparison ? null : RANGE.exec(text);
  if (comparison || range) {
    if (typeof value !== 'number' || Number.isNaN(value)) return false;
    if (range) {
      const [lo, hi] = [Number(range[1]), Number(range[2])].sort((a, b) => a - b);
      return value >= lo! && value <= hi!;
    }
    const bound = Number(comparison![2]);
    switch (comparison![1]) {
      case '>':
        return value > bound;
      case '>=':
        return value >= bound;
      case '<':
        return value < bound;
      case '<=':
        return value <= bound;
      default:
        return value === bound;
    }
  }
  return rowMatches([value], filterWords(text));
}
