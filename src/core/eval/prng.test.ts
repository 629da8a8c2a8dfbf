import { describe, expect, it } from 'vitest';
import { mulberry32 } from './prng.ts';

describe('mulberry32', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const c = mulberry32(8);
    const xs = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(xs);
    expect(Array.from({ length: 5 }, c)).not.toEqual(xs);
  });

  it('returns unsigned 32-bit integers with balanced bits', () => {
    const next = mulberry32(123);
    const n = 20_000;
    const ones = new Array<number>(32).fill(0);
    for (let i = 0; i < n; i++) {
      const x = next();
      expect(Number.isInteger(x) && x >= 0 && x < 2 ** 32).toBe(true);
      for (let bit = 0; bit < 32; bit++) if ((x >>> bit) & 1) ones[bit]++;
    }
    // Each bit is 1 with probability 1/2: sd of the count = sqrt(n)/2 ≈ 71; allow 5 sd.
    for (const count of ones) expect(Math.abs(count - n / 2)).toBeLessThan(5 * 71);
  });

  it('treats the seed as an unsigned 32-bit integer', () => {
    expect(mulberry32(-1)()).toBe(mulberry32(2 ** 32 - 1)());
  });
});
