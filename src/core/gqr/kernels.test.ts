import { describe, expect, it } from 'vitest';
import { axpyAt, dotAt } from './kernels.ts';

describe('dotAt', () => {
  it('handles offsets and lengths that are not multiples of four', () => {
    const a = Float64Array.from([9, 1, 2, 3, 4, 5, 6]);
    const b = Float64Array.from([1, 1, 1, 1, 1, 2, 9]);
    // a[1..6] · b[0..5] = 1 + 2 + 3 + 4 + 5 + 12
    expect(dotAt(a, 1, b, 0, 6)).toBe(27);
    expect(dotAt(a, 0, b, 0, 0)).toBe(0);
    expect(dotAt(a, 0, b, 0, 3)).toBe(12);
  });
});

describe('axpyAt', () => {
  it('adds alpha·x into y at the offsets', () => {
    const x = Float64Array.from([1, 2, 3, 4, 5]);
    const y = Float64Array.from([0, 10, 10, 10, 10, 10, 0]);
    axpyAt(2, x, 0, y, 1, 5);
    expect(Array.from(y)).toEqual([0, 12, 14, 16, 18, 20, 0]);
  });
});
