import type { TokenUsage } from './types.ts';

/** A fresh all-zero usage. */
export function zeroUsage(): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/** Key-wise sum of the given usages; missing entries count as nothing (the reference, docs/decisions.md#hds-reference). */
export function sumUsage(usages: Iterable<TokenUsage | undefined>): TokenUsage {
  const total = zeroUsage();
  for (const u of usages) {
    if (!u) continue;
    total.promptTokens += u.promptTokens;
    total.completionTokens += u.completionTokens;
    total.totalTokens += u.totalTokens;
  }
  return total;
}
