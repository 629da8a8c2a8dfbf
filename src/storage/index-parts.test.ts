import { describe, expect, it } from 'vitest';
import { joinParts, splitIntoParts } from './index-parts.ts';

describe('index parts', () => {
  const value = {
    version: 3,
    name: 'x',
    compact: { big: Uint32Array.from({ length: 1000 }, (_, i) => i * 7), small: new Uint16Array([1, 2]), ids: { text: 'ab', ends: new Uint32Array([1, 2]) } },
  };

  it('keeps small arrays in the head, splits large ones and joins them back exactly', () => {
    const { head, parts } = splitIntoParts(value, 1024);
    expect(head.compact.small).toBe(value.compact.small);
    expect(ArrayBuffer.isView(head.compact.big)).toBe(false);
    expect(parts.map((p) => [p.path, p.part, p.data.length])).toEqual([
      ['compact.big', 0, 256],
      ['compact.big', 1, 256],
      ['compact.big', 2, 256],
      ['compact.big', 3, 232],
    ]);
    for (const p of parts) expect(p.data.buffer.byteLength).toBe(p.data.byteLength);
    const joined = joinParts(structuredClone(head), structuredClone(parts).reverse());
    expect(joined).toEqual(value);
    expect(joined.compact.big).toBeInstanceOf(Uint32Array);
  });

  it('names the array whose parts are missing', () => {
    const { head, parts } = splitIntoParts(value, 1024);
    expect(() => joinParts(head, parts.slice(1))).toThrow('The stored index is incomplete: compact.big has 3 of 4 parts');
  });
});
