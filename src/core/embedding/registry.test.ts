import { describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL_PRESETS, findEmbeddingPreset } from './registry.ts';

describe('embedding model registry', () => {
  it('has the documented defaults', () => {
    expect(findEmbeddingPreset('Xenova/all-MiniLM-L6-v2')).toMatchObject({ pooling: 'mean', prefixes: { query: '', passage: '' } });
    expect(findEmbeddingPreset('Xenova/bge-small-en-v1.5')).toMatchObject({
      pooling: 'cls',
      prefixes: { query: 'Represent this sentence for searching relevant passages: ', passage: '' },
    });
    expect(findEmbeddingPreset('Xenova/e5-small-v2')).toMatchObject({ pooling: 'mean', prefixes: { query: 'query: ', passage: 'passage: ' } });
    expect(findEmbeddingPreset('tiny-bert')).toMatchObject({ pooling: 'mean', dimensions: 32, prefixes: { query: '', passage: '' } });
    expect(findEmbeddingPreset('unknown/model')).toBeUndefined();
  });
  it('names the command that puts a model into public/models/, for the models the project prepares', () => {
    expect(findEmbeddingPreset('Xenova/all-MiniLM-L6-v2')?.localSetup).toBe('npm run models');
    expect(findEmbeddingPreset('Xenova/all-mpnet-base-v2')?.localSetup).toBe('npm run models');
    expect(findEmbeddingPreset('tiny-bert')?.localSetup).toBe('npm run gen:model');
    expect(findEmbeddingPreset('Xenova/e5-small-v2')?.localSetup).toBeUndefined();
  });
  it('has all-mpnet-base-v2 as sentence-transformers configures it (mean pooling, 768 dims, 384 tokens)', () => {
    expect(findEmbeddingPreset('Xenova/all-mpnet-base-v2')).toMatchObject({
      pooling: 'mean',
      dimensions: 768,
      maxTokens: 384,
      prefixes: { query: '', passage: '' },
      localSetup: 'npm run models',
    });
  });
  it('has a preset, made by `npm run models`, for every real encoder that step exports', async () => {
    const { REAL_ENCODERS } = await import('../../../scripts/real-encoders.mjs');
    expect(REAL_ENCODERS.length).toBeGreaterThanOrEqual(2);
    for (const encoder of REAL_ENCODERS) expect(findEmbeddingPreset(encoder.presetId)?.localSetup, encoder.presetId).toBe('npm run models');
  });
  it('has unique ids', () => {
    const ids = EMBEDDING_MODEL_PRESETS.map((p) => p.modelId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
