import { describe, expect, it } from 'vitest';
import { checkedNumber, NUMERIC_RULES, numberProblem } from './numeric-rules.ts';

describe('numeric rules', () => {
  it('accepts values in range and refuses the rest with the range in words', () => {
    expect(numberProblem(NUMERIC_RULES.permutations, '10000')).toBeNull();
    expect(numberProblem(NUMERIC_RULES.permutations, 1_000_000)).toBeNull();
    for (const bad of ['100000000000', '0', '2.5', '', ' ', 'abc', '1e999', 'NaN', '-1']) {
      expect(numberProblem(NUMERIC_RULES.permutations, bad)).toBe('must be a whole number from 1 to 1000000');
    }
    expect(numberProblem(NUMERIC_RULES.temperature, '0.7')).toBeNull();
    expect(numberProblem(NUMERIC_RULES.temperature, '2.5')).toBe('must be a number from 0 to 2');
    expect(numberProblem(NUMERIC_RULES.passageOverlap, 0)).toBeNull();
    // GQR's temperature and step size must be above 0, as the reference checks
    expect(numberProblem(NUMERIC_RULES.gqrTemperature, 0)).toBe('must be a number above 0, up to 1000');
    expect(numberProblem(NUMERIC_RULES.gqrTemperature, '1e-9')).toBeNull();
    expect(numberProblem(NUMERIC_RULES.gqrLearningRate, '0')).toBe('must be a number above 0, up to 1000');
  });

  it('checkedNumber names the setting and the value', () => {
    expect(checkedNumber('--top-k', NUMERIC_RULES.topK, '50')).toBe(50);
    expect(() => checkedNumber('--permutations', NUMERIC_RULES.permutations, '100000000000')).toThrow(
      '--permutations must be a whole number from 1 to 1000000, got "100000000000"',
    );
  });

  it('every rule has min <= max, and whole-number rules have whole bounds', () => {
    for (const rule of Object.values(NUMERIC_RULES)) {
      expect(rule.min).toBeLessThanOrEqual(rule.max);
      if (rule.integer) expect(Number.isInteger(rule.min) && Number.isInteger(rule.max)).toBe(true);
    }
  });
});
