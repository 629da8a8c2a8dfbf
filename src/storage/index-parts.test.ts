import { describe, expect, it } from 'vitest';
import { joinParts, splitIntoParts } from './index-parts.ts';

describe('index parts', () => {
  const value = {
    version: 3,
    name: 'x',
    compact: { big: Uint32Array.from({ length: 1000 }, (_, i) => i * 7), small: new Uint16Array([1, 2]), ids: { text: 'ab', ends: new Uint32Array([1, 2]) } },
  };

  it('keeps small arrays in the head, splits large ones into Blobs and joins them back exactly', async () => {
    const { head, parts } = splitIntoParts(value, 1024, 8);
    expect(head.compact.small).toBe(value.compact.small);
    expect(ArrayBuffer.isView(head.compact.big)).toBe(false);
    expect(ArrayBuffer.isView(head.compact.ids.ends)).toBe(true);
    expect(parts.map((p) => [p.path, p.part, p.blob!.size])).toEqual([
      ['compact.big', 0, 1024],
      ['compact.big', 1, 1024],
      ['compact.big', 2, 1024],
      ['compact.big', 3, 928],
    ]);
    const joined = await joinParts(structuredClone(head), structuredClone(parts).reverse());
    expect(joined).toEqual(value);
    expect(joined.compact.big).toBeInstanceOf(Uint32Array);
  });

  it('moves arrays above the minimum size out of the head even when they fit one part', async () => {
    const { head, parts } = splitIntoParts(value, 1 << 20, 16);
    expect(parts.map((p) => [p.path, p.blob!.size])).toEqual([['compact.big', 4000]]);
    expect(await joinParts(head, parts)).toEqual(value);
  });

  it('still joins parts stored as typed arrays (before Blobs)', async () => {
    const { head } = splitIntoParts(value, 1024, 8);
    const big = value.compact.big;
    const typedParts = [0, 1, 2, 3].map((i) => ({ path: 'compact.big', part: i, data: big.slice(i * 256, (i + 1) * 256) }));
    expect(await joinParts(head, typedParts)).toEqual(value);
  });

  it('names the array whose parts are missing', async () => {
    const { head, parts } = splitIntoParts(value, 1024, 8);
    await expect(joinParts(head, parts.slice(1))).rejects.toThrow('The stored index is incomplete: compact.big has 3 of 4 parts');
  });
});
