import { describe, expect, it } from 'vitest';
import { StringTableLookup } from './string-lookup.ts';
import { packStrings } from './string-table.ts';

describe('StringTableLookup', () => {
  it('finds the position of every string of an unsorted table and -1 for others', () => {
    const strings = Array.from({ length: 20_000 }, (_, i) => `doc-${(i * 7919) % 20_000}`);
    strings.push('', 'café', '文書', 'a\u0000b', '😀');
    const lookup = new StringTableLookup(packStrings(strings));
    strings.forEach((s, i) => expect(lookup.indexOf(s)).toBe(i));
    for (const absent of ['doc-20000', 'doc-', 'cafe', 'a', 'b', '\u0000', 'doc-1 ', '😁']) expect(lookup.indexOf(absent)).toBe(-1);
  });

  it('gives the first position of a string that is there twice', () => {
    const lookup = new StringTableLookup(packStrings(['x', 'y', 'x', 'z', 'y']));
    expect([lookup.indexOf('x'), lookup.indexOf('y'), lookup.indexOf('z')]).toEqual([0, 1, 3]);
  });

  it('works on an empty table and costs 6 bytes a string', () => {
    expect(new StringTableLookup(packStrings([])).indexOf('a')).toBe(-1);
    const n = 100_000;
    const lookup = new StringTableLookup(packStrings(Array.from({ length: n }, (_, i) => String(i))));
    expect(lookup.byteLength).toBe(Math.ceil(n * 1.5) * 4);
  });

  it('is built once per table object by `of`, so holders of the same id table share it', () => {
    const table = packStrings(['a', 'b', 'c']);
    const first = StringTableLookup.of(table);
    expect(StringTableLookup.of(table)).toBe(first);
    expect(first.indexOf('c')).toBe(2);
    const copy = packStrings(['a', 'b', 'c']);
    expect(StringTableLookup.of(copy)).not.toBe(first);
  });
});
