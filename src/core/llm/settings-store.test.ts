import { describe, expect, it } from 'vitest';
import { llmSettingsRecord, withApiKey } from './settings-store.ts';

describe('API keys in settings', () => {
  it('are trimmed when stored and forgotten when blank', () => {
    expect(withApiKey({ a: 'x' }, 'openai', '  sk-1  ')).toEqual({ a: 'x', openai: 'sk-1' });
    expect(withApiKey({ a: 'x', openai: 'sk-1' }, 'openai', '   ')).toEqual({ a: 'x' });
  });

  it('are split from the active endpoint; an endpoint without a key field keeps the stored keys', () => {
    const endpoint = { kind: 'openai-compatible' as const, presetId: 'custom', baseUrl: 'http://x/v1', model: 'm' };
    expect(llmSettingsRecord({ ...endpoint, apiKey: ' k ' }, { openai: 'o' })).toEqual({ active: endpoint, apiKeys: { openai: 'o', custom: 'k' } });
    expect(llmSettingsRecord(endpoint, { custom: 'k' })).toEqual({ active: endpoint, apiKeys: { custom: 'k' } });
  });
});
