import { describe, expect, it } from 'vitest';
import { assertSameEmbeddingModel, describeEmbeddingModel, sameEmbeddingModel, type EmbeddingModelInfo } from './model-info.ts';

const e5: EmbeddingModelInfo = {
  modelId: 'Xenova/e5-small-v2',
  dtype: 'fp32',
  pooling: 'mean',
  dimensions: 384,
  prefixes: { query: 'query: ', passage: 'passage: ' },
};

describe('embedding model identity', () => {
  it('describes a model on one line', () => {
    expect(describeEmbeddingModel(e5)).toBe(
      'Xenova/e5-small-v2 (fp32, mean pooling, 384 dims, query prefix "query: ", passage prefix "passage: ")',
    );
  });

  it('compares every field', () => {
    expect(sameEmbeddingModel(e5, { ...e5, prefixes: { ...e5.prefixes } })).toBe(true);
    expect(sameEmbeddingModel(e5, { ...e5, modelId: 'x' })).toBe(false);
    expect(sameEmbeddingModel(e5, { ...e5, dtype: 'q8' })).toBe(false);
    expect(sameEmbeddingModel(e5, { ...e5, pooling: 'cls' })).toBe(false);
    expect(sameEmbeddingModel(e5, { ...e5, dimensions: 32 })).toBe(false);
    expect(sameEmbeddingModel(e5, { ...e5, prefixes: { query: '', passage: 'passage: ' } })).toBe(false);
    expect(sameEmbeddingModel(e5, { ...e5, prefixes: { query: 'query: ', passage: '' } })).toBe(false);
  });

  it('the assertion names both models', () => {
    expect(() => assertSameEmbeddingModel(e5, e5)).not.toThrow();
    const q8 = { ...e5, dtype: 'q8' };
    expect(() => assertSameEmbeddingModel(e5, q8)).toThrow(
      'Embedding model mismatch: the vector store was built with Xenova/e5-small-v2 (fp32, mean pooling, 384 dims, ' +
        'query prefix "query: ", passage prefix "passage: "), but the query was embedded with Xenova/e5-small-v2 (q8, mean',
    );
  });
});
