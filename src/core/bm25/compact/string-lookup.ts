import type { StringTable } from './string-table.ts';

/** Slots per string: a load factor of 2/3 keeps linear probes short. */
const SLOTS_PER_STRING = 1.5;

const shared = new WeakMap<StringTable, StringTableLookup>();

/**
 * Finds a string's position in a `StringTable` in any order (such as an index's document ids) through an
 * open-addressing hash of positions: 6 bytes a string, where a Map of millions of strings costs tens of bytes each.
 * The strings stay in the table and are compared in place.
 */
export class StringTableLookup {
  /** Position + 1 of the string hashed to each slot; 0 is an empty slot. */
  private readonly slots: Uint32Array;

  /**
   * The lookup of `table`, built once per table object: the index and a document spool both look ids up in the
   * same id table, and at 8.8M ids each lookup is 53 MB.
   */
  static of(table: StringTable): StringTableLookup {
    let lookup = shared.get(table);
    if (!lookup) {
      lookup = new StringTableLookup(table);
      shared.set(table, lookup);
    }
    return lookup;
  }

  /** Bytes of the lookup of a table of `count` strings. */
  static bytesFor(count: number): number {
    return slotsFor(count) * 4;
  }

  constructor(private readonly table: StringTable) {
    const n = table.ends.length;
    this.slots = new Uint32Array(slotsFor(n));
    const { text, ends } = table;
    for (let i = 0; i < n; i++) {
      const start = i === 0 ? 0 : ends[i - 1]!;
      let slot = hashRange(text, start, ends[i]!) % this.slots.length;
      // An equal string already present keeps its (earlier) slot: the first position is found.
      while (this.slots[slot] !== 0) {
        if (this.equals(this.slots[slot]! - 1, text, start, ends[i]!)) break;
        slot = slot + 1 === this.slots.length ? 0 : slot + 1;
      }
      if (this.slots[slot] === 0) this.slots[slot] = i + 1;
    }
  }

  /** Position of `s` in the table (the first, if it is there more than once), or -1. */
  indexOf(s: string): number {
    let slot = hashRange(s, 0, s.length) % this.slots.length;
    while (this.slots[slot] !== 0) {
      const i = this.slots[slot]! - 1;
      if (this.equals(i, s, 0, s.length)) return i;
      slot = slot + 1 === this.slots.length ? 0 : slot + 1;
    }
    return -1;
  }

  get byteLength(): number {
    return this.slots.byteLength;
  }

  /** Whether string `i` of the table is `s[from, to)`. */
  private equals(i: number, s: string, from: number, to: number): boolean {
    const start = i === 0 ? 0 : this.table.ends[i - 1]!;
    if (this.table.ends[i]! - start !== to - from) return false;
    const text = this.table.text;
    for (let c = 0; c < to - from; c++) if (text.charCodeAt(start + c) !== s.charCodeAt(from + c)) return false;
    return true;
  }
}

function slotsFor(count: number): number {
  return Math.max(8, Math.ceil(count * SLOTS_PER_STRING));
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`, as an unsigned 32-bit number. */
function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let c = start; c < end; c++) h = Math.imul(h ^ text.charCodeAt(c), 0x01000193);
  return h >>> 0;
}
