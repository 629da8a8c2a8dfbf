/**
 * Many strings as one string plus end offsets: a million ids or terms cost two objects instead of a million,
 * and structured clone (IndexedDB, postMessage) copies them in one piece.
 */
export interface StringTable {
  text: string;
  /** String `i` is `text.slice(ends[i - 1] ?? 0, ends[i])`. */
  ends: Uint32Array;
}

export function packStrings(strings: readonly string[]): StringTable {
  const ends = new Uint32Array(strings.length);
  let at = 0;
  for (let i = 0; i < strings.length; i++) {
    at += strings[i]!.length;
    ends[i] = at;
  }
  return { text: strings.join(''), ends };
}

export function stringAt(table: StringTable, i: number): string {
  return table.text.slice(i === 0 ? 0 : table.ends[i - 1]!, table.ends[i]!);
}

export function unpackStrings(table: StringTable): string[] {
  const out = new Array<string>(table.ends.length);
  for (let i = 0; i < out.length; i++) out[i] = stringAt(table, i);
  return out;
}

/** Position of `s` in a table sorted by UTF-16 code units (JavaScript's default sort), or -1. */
export function findSorted(table: StringTable, s: string): number {
  let lo = 0;
  let hi = table.ends.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const order = compareAt(table, mid, s);
    if (order < 0) lo = mid + 1;
    else if (order > 0) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The sign of string `i` of the table against `s`, by UTF-16 code units, compared in place (no slice). */
function compareAt(table: StringTable, i: number, s: string): number {
  const { text } = table;
  const start = i === 0 ? 0 : table.ends[i - 1]!;
  const length = table.ends[i]! - start;
  const shorter = Math.min(length, s.length);
  for (let j = 0; j < shorter; j++) {
    const difference = text.charCodeAt(start + j) - s.charCodeAt(j);
    if (difference !== 0) return difference;
  }
  return length - s.length;
}
