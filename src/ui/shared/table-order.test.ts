import { describe, expect, it } from 'vitest';
import { cellMatchesFilter, compareCellValues, filterWords, rowMatches, type CellValue } from './table-order.ts';

const sorted = (values: CellValue[]) => [...values].sort(compareCellValues);

describe('compareCellValues', () => {
  it('orders numbers by value, not as text', () => {
    expect(sorted([10, 9, 0.5, -1, 100])).toEqual([-1, 0.5, 9, 10, 100]);
  });

  it('orders text naturally and without case', () => {
    expect(sorted(['q10', 'q2', 'Q1', 'b', 'A'])).toEqual(['A', 'b', 'Q1', 'q2', 'q10']);
  });

  it('puts missing values last, numbers before text', () => {
    expect(sorted([null, 'x', 3, Number.NaN, 1])).toEqual([1, 3, 'x', null, Number.NaN]);
    expect(compareCellValues(undefined, 1)).toBe(1);
    expect(compareCellValues(null, undefined)).toBe(0);
  });
});

describe('rowMatches', () => {
  it('needs every word somewhere in the row, in any case', () => {
    const row = ['BM25 baseline', 'BM25 k1=0.9 b=0.4', 0.7521, null];
    expect(rowMatches(row, filterWords('  baseline  K1=0.9 '))).toBe(true);
    expect(rowMatches(row, filterWords('0.75'))).toBe(true);
    expect(rowMatches(row, filterWords('baseline dense'))).toBe(false);
    expect(rowMatches(row, filterWords(''))).toBe(true);
  });
});

describe('cellMatchesFilter', () => {
  it('compares number cells with >, >=, <, <= and =', () => {
    expect([0.4, 0.5, 0.6].filter((v) => cellMatchesFilter(v, '> 0.5'))).toEqual([0.6]);
    expect([0.4, 0.5, 0.6].filter((v) => cellMatchesFilter(v, '>=0.5'))).toEqual([0.5, 0.6]);
    expect([0.4, 0.5, 0.6].filter((v) => cellMatchesFilter(v, '<0.5'))).toEqual([0.4]);
    expect([0.4, 0.5, 0.6].filter((v) => cellMatchesFilter(v, '<= .5'))).toEqual([0.4, 0.5]);
    expect([-1, 0, 1].filter((v) => cellMatchesFilter(v, '= -1'))).toEqual([-1]);
    expect([1e-5, 0.1].filter((v) => cellMatchesFilter(v, '< 1e-3'))).toEqual([1e-5]);
  });

  it('keeps a range with both ends, in either order', () => {
    expect([0.1, 0.2, 0.3, 0.4, 0.5].filter((v) => cellMatchesFilter(v, '0.2..0.4'))).toEqual([0.2, 0.3, 0.4]);
    expect([0.1, 0.2, 0.3].filter((v) => cellMatchesFilter(v, '0.3 .. 0.2'))).toEqual([0.2, 0.3]);
  });

  it('never lets a comparison match a cell without a number', () => {
    expect(['0.7', null, undefined, Number.NaN].some((v) => cellMatchesFilter(v, '> 0'))).toBe(false);
  });

  it('matches text by every word, in any case, and an empty box matches all', () => {
    expect(cellMatchesFilter('GQR α 0.5 (sweep)', 'gqr sweep')).toBe(true);
    expect(cellMatchesFilter('GQR α 0.5 (sweep)', 'gqr bm25')).toBe(false);
    expect(cellMatchesFilter(12, '12')).toBe(true);
    expect(cellMatchesFilter(null, '  ')).toBe(true);
  });
});
