import { describe, expect, it } from 'vitest';
import { check } from './NumberField.tsx';

describe('NumberField check', () => {
  it('accepts numbers in bounds and explains everything else', () => {
    expect(check('0.05', 0, 1, false)).toBeNull();
    expect(check('', 0, 1, false)).toBe('Enter a number from 0 to 1');
    expect(check('1.5', 0, 1, false)).toBe('Enter a number from 0 to 1');
    expect(check('-1', 0, undefined, false)).toBe('Enter a number from 0 to ∞');
    expect(check('1e308', 0, undefined, false)).toBeNull();
    expect(check('1e999', 0, undefined, false)).toBe('Enter a number from 0 to ∞');
    expect(check('2.5', 1, 1000, true)).toBe('Enter a whole number from 1 to 1000');
    expect(check('0', 1, 1000, true)).toBe('Enter a number from 1 to 1000');
    expect(check('1000', 1, 1000, true)).toBeNull();
    // a temperature: 0 itself is refused, as the search would refuse it
    expect(check('0', 0, 1000, false, true)).toBe('Enter a number above 0, up to 1000');
    expect(check('0.001', 0, 1000, false, true)).toBeNull();
  });
});
