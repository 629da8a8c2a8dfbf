import { describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL_PRESETS, findEmbeddingPreset, preferredServedPreset } from './registry.ts';

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
  it('preselects the best served real encoder with its measured default weights, tiny-bert only when nothing else is', () => {
    const servedAs = (files: string[]) => (modelId: string, dtype: string) => files.includes(`${modelId}:${dtype}`);
    const pick = (files: string[]) => {
      const best = preferredServedPreset(servedAs(files));
      return best && `${best.preset.modelId}:${best.dtype}`;
    };
    expect(pick(['tiny-bert:fp32', 'Xenova/all-mpnet-base-v2:fp32', 'Xenova/all-MiniLM-L6-v2:q8', 'Xenova/all-MiniLM-L6-v2:fp32'])).toBe('Xenova/all-MiniLM-L6-v2:q8');
    expect(pick(['tiny-bert:fp32', 'Xenova/all-MiniLM-L6-v2:fp32'])).toBe('Xenova/all-MiniLM-L6-v2:fp32');
    expect(pick(['tiny-bert:fp32', 'Xenova/all-mpnet-base-v2:fp32'])).toBe('Xenova/all-mpnet-base-v2:fp32');
    expect(pick(['tiny-bert:fp32'])).toBe('tiny-bert:fp32');
    expect(pick([])).toBeUndefined();
    expect(findEmbeddingPreset('tiny-bert')?.testModel).toBe(true);
    expect(findEmbeddingPreset('tiny-bert')?.label).toMatch(/test model/);
    expect(findEmbeddingPreset('Xenova/all-MiniLM-L6-v2')?.defaultDtype).toBe('q8');
  });

  it('has unique ids', () => {
    const ids = EMBEDDING_MODEL_PRESETS.map((p) => p.modelId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
