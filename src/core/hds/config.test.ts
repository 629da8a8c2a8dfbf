import { describe, expect, it } from 'vitest';
import { DEFAULT_HDS_CONFIG, effectiveK, HdsConfigError, resolveHdsConfig } from './config.ts';
import { DEFAULT_PLAN_PROMPT, DSW_PLAN_PROMPT } from './prompts.ts';

describe('HDS configuration', () => {
  it('has the reference defaults', () => {
    expect(DEFAULT_HDS_CONFIG).toMatchObject({
      maxTurns: 3,
      maxParallelQueries: 4,
      kPerQuery: 3,
      evidenceBudget: 12,
      maxSearchCalls: 8,
      retrievalConcurrency: 4,
      fallbackToFinalPrompt: true,
      allowPartialRetrievalFailures: false,
    });
    expect(DEFAULT_HDS_CONFIG.topK).toBeUndefined();
  });

  it('10 initialization_rejects_invalid_turns', () => {
    expect(() => resolveHdsConfig({ maxTurns: 0 })).toThrow(HdsConfigError);
    expect(() => resolveHdsConfig({ maxTurns: 0 })).toThrow('max_turns must be >= 1');
  });

  it('validates in the reference order with the reference messages', () => {
    expect(() => resolveHdsConfig({ maxParallelQueries: 0, kPerQuery: 0 })).toThrow('max_parallel_queries must be >= 1');
    expect(() => resolveHdsConfig({ kPerQuery: 0 })).toThrow('k_per_query must be >= 1');
    const combined = 'evidence_budget, max_search_calls, and retrieval_concurrency must be >= 1';
    expect(() => resolveHdsConfig({ evidenceBudget: 0 })).toThrow(combined);
    expect(() => resolveHdsConfig({ maxSearchCalls: -1 })).toThrow(combined);
    expect(() => resolveHdsConfig({ retrievalConcurrency: 0 })).toThrow(combined);
    expect(() => resolveHdsConfig({ maxTurns: 0, kPerQuery: 0 })).toThrow('max_turns must be >= 1');
  });

  it('rejects fractions and NaN', () => {
    expect(() => resolveHdsConfig({ maxTurns: 1.5 })).toThrow('max_turns must be a whole number');
    expect(() => resolveHdsConfig({ kPerQuery: Number.NaN })).toThrow('k_per_query must be a whole number');
    // Upper bounds (numeric rules), after the reference's checks.
    expect(() => resolveHdsConfig({ maxSearchCalls: 100_000_000_000 })).toThrow('max_search_calls must be a whole number from 1 to 10000');
    expect(() => resolveHdsConfig({ maxTurns: 101 })).toThrow('max_turns must be a whole number from 1 to 100');
    expect(resolveHdsConfig({ maxTurns: 100 }).maxTurns).toBe(100);
  });

  it('rejects a template with an unknown placeholder before any call', () => {
    expect(() => resolveHdsConfig({ planPromptTemplate: '{question}' })).toThrow('Unknown placeholder {question}');
  });

  it('ignores undefined overrides', () => {
    expect(resolveHdsConfig({ maxTurns: undefined, kPerQuery: 5 })).toMatchObject({ maxTurns: 3, kPerQuery: 5 });
  });

  it('effective k is min(topK, kPerQuery) when topK > 0 (the reference, docs/decisions.md#hds-reference step 9)', () => {
    expect(effectiveK({ kPerQuery: 4, topK: 2 })).toBe(2);
    expect(effectiveK({ kPerQuery: 3, topK: 10 })).toBe(3);
    expect(effectiveK({ kPerQuery: 3, topK: 0 })).toBe(3);
    expect(effectiveK({ kPerQuery: 3 })).toBe(3);
  });

  it('names the plan prompt (H-variants), the plan stop (H9) and the final-answer mode (H10), and refuses unknown ones', () => {
    expect(resolveHdsConfig({})).toMatchObject({ promptVariant: 'reference', planStop: 'query-block', finalAnswer: 'reference' });
    expect(resolveHdsConfig({}).planPromptTemplate).toBe(DEFAULT_PLAN_PROMPT);
    const dsw = resolveHdsConfig({ promptVariant: 'dsw-1' });
    expect(dsw.planPromptTemplate).toBe(DSW_PLAN_PROMPT);
    expect(resolveHdsConfig({ planPromptTemplate: DSW_PLAN_PROMPT }).promptVariant).toBe('dsw-1');
    expect(resolveHdsConfig({ promptVariant: 'dsw-1', planPromptTemplate: 'Q {query} {turn} {max_turns} {remaining_search_calls} {interaction_log}' }).promptVariant).toBe('custom');
    expect(() => resolveHdsConfig({ promptVariant: 'nope' as 'custom' })).toThrow('prompt_variant must be one of reference, dsw-1, custom');
    expect(() => resolveHdsConfig({ planStop: 'always' as 'none' })).toThrow('plan_stop must be query-block or none');
    expect(resolveHdsConfig({}).planGuard).toBe('off');
    expect(() => resolveHdsConfig({ planGuard: 'on' as 'off' })).toThrow('plan_guard must be one of off, loops');
    expect(() => resolveHdsConfig({ finalAnswer: 'x' as 'boxed' })).toThrow('final_answer must be one of reference, boxed, boxed-prefix');
  });
});
