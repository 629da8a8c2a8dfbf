import { describe, expect, it } from 'vitest';
import { compareCellValues, filterWords, rowMatches, type CellValue } from './table-order.ts';

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
