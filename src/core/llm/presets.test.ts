import { describe, expect, it } from 'vitest';
import { findLlmPreset, LLM_PRESETS } from './presets.ts';

describe('LLM presets', () => {
  it('cover the six servers with distinct ids and /v1 base URLs', () => {
    expect(LLM_PRESETS.map((p) => p.id)).toEqual(['openai', 'openrouter', 'ollama', 'vllm', 'llamacpp', 'lmstudio']);
    for (const preset of LLM_PRESETS) expect(preset.baseUrl).toMatch(/^https?:\/\/[^/]+(\/api)?\/v1$/);
  });

  it('explain CORS for the local servers', () => {
    expect(findLlmPreset('ollama')?.notes).toContain('OLLAMA_ORIGINS');
    expect(findLlmPreset('lmstudio')?.notes).toContain('CORS');
    expect(findLlmPreset('ollama')?.baseUrl).toBe('http://localhost:11434/v1');
  });

  // A worked scenario of the reference (default_yaml_references_existing_llm_config), adapted: there is no YAML registry;
  // the reference's default LLM (openai-gpt4o-mini) is what the OpenAI preset proposes.
  it('9 default_yaml_references_existing_llm_config — TS: the OpenAI preset proposes gpt-4o-mini', () => {
    expect(findLlmPreset('openai')).toMatchObject({ baseUrl: 'https://api.openai.com/v1', exampleModel: 'gpt-4o-mini' });
    expect(findLlmPreset('nope')).toBeUndefined();
  });
});
