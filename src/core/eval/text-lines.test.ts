import { describe, expect, it } from 'vitest';
import { parseDecimal, splitFields, splitLines } from './text-lines.ts';

describe('splitLines', () => {
  it('splits LF, CRLF and CR; a final newline adds no line', () => {
    expect(splitLines('a\nb\r\nc\rd\n')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLines('')).toEqual([]);
  });
});

describe('splitFields', () => {
  it('splits on any whitespace and ignores a BOM', () => {
    expect(splitFields('\uFEFFq1\t0  d1 \t 1\r')).toEqual(['q1', '0', 'd1', '1']);
    expect(splitFields('   ')).toEqual([]);
  });
});

describe('parseDecimal', () => {
  it('accepts plain decimals only', () => {
    expect(parseDecimal('3')).toBe(3);
    expect(parseDecimal('-0.5')).toBe(-0.5);
    expect(parseDecimal('+.25')).toBe(0.25);
    expect(parseDecimal('1e-7')).toBe(1e-7);
    expect(parseDecimal('12.')).toBe(12);
    for (const bad of ['', 'abc', '0x10', 'NaN', 'inf', 'Infinity', '1e999', '1,5', '--1']) {
      expect(parseDecimal(bad)).toBeNull();
    }
  });
});
