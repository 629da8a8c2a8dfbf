import { describe, expect, it } from 'vitest';
import { sumUsage } from './usage.ts';

describe('sumUsage', () => {
  it('sums key-wise and skips missing entries', () => {
    const u = { promptTokens: 2, completionTokens: 3, totalTokens: 5 };
    expect(sumUsage([u, undefined, u])).toEqual({ promptTokens: 4, completionTokens: 6, totalTokens: 10 });
  });

  it('is all zeros for nothing', () => {
    expect(sumUsage([])).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  });
});
