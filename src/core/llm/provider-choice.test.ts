import { describe, expect, it } from 'vitest';
import { MemorySettingsStore } from './memory-settings-store.ts';
import { freshProviderSettings, providerChoiceOf, switchProvider, type ProviderChoices } from './provider-choice.ts';
import type { LlmProviderSettings } from './provider-settings.ts';

const custom: LlmProviderSettings = { kind: 'openai-compatible', presetId: 'custom', baseUrl: 'http://127.0.0.1:9000/v1', model: 'my-model', maxTokens: 2048, temperature: 0.3, apiKey: 'sk-custom' };

describe('switching the model provider', () => {
  it('keeps each provider’s base URL, model and sampling: switching away and back restores them, nothing carries over', () => {
    const keys = { custom: 'sk-custom', openai: 'sk-openai' };
    let choices: ProviderChoices = { active: custom, others: {} };
    choices = switchProvider(choices, 'ollama', keys);
    expect(choices.active).toEqual({ ...freshProviderSettings('ollama'), apiKey: '' }); // no max tokens, model or URL carried over
    expect(choices.active).not.toHaveProperty('maxTokens');
    choices = { ...choices, active: { ...(choices.active as Extract<LlmProviderSettings, { kind: 'openai-compatible' }>), model: 'qwen3', maxTokens: 99 } };
    choices = switchProvider(choices, 'openai', keys);
    expect(choices.active).toMatchObject({ presetId: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai' });
    choices = switchProvider(choices, 'transformers', keys);
    expect(choices.active).toEqual(freshProviderSettings('transformers'));
    choices = switchProvider(choices, 'custom', keys);
    expect(choices.active).toEqual(custom);
    choices = switchProvider(choices, 'ollama', keys);
    expect(choices.active).toMatchObject({ presetId: 'ollama', model: 'qwen3', maxTokens: 99, baseUrl: 'http://localhost:11434/v1' });
    // The others never hold a key.
    expect(JSON.stringify(choices.others)).not.toContain('sk-');
    expect(Object.keys(choices.others).sort()).toEqual(['custom', 'openai', 'transformers']);
  });

  it('an unknown choice is the custom endpoint; the choice of settings is its preset or the in-browser model', () => {
    expect(switchProvider({ active: custom, others: {} }, 'nope', {}).active).toMatchObject({ presetId: 'custom', baseUrl: custom.baseUrl, apiKey: '' });
    expect(providerChoiceOf(custom)).toBe('custom');
    expect(providerChoiceOf(freshProviderSettings('transformers'))).toBe('transformers');
    expect(freshProviderSettings('custom')).toEqual({ kind: 'openai-compatible', presetId: 'custom', baseUrl: '', model: '' });
  });

  it('the settings store keeps the other providers’ settings without keys', async () => {
    const store = new MemorySettingsStore();
    const others = { custom: custom, openai: { kind: 'openai-compatible', presetId: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt', apiKey: 'sk-openai' } } as Record<string, LlmProviderSettings>;
    await store.saveLlmSettings(freshProviderSettings('ollama'), { custom: 'sk-custom', openai: 'sk-openai' }, others);
    const stored = await store.getLlmSettings();
    expect(stored?.others?.custom).toEqual({ kind: 'openai-compatible', presetId: 'custom', baseUrl: custom.baseUrl, model: 'my-model', maxTokens: 2048, temperature: 0.3 });
    expect(JSON.stringify(stored?.others)).not.toContain('sk-');
    expect(stored?.apiKeys).toEqual({ custom: 'sk-custom', openai: 'sk-openai' });
  });
});
