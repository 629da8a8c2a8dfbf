import { describe, expect, it } from 'vitest';
import { documentIndexBody, innerProductOfKnnScore, vectorFromBase64, vectorToBase64 } from './cluster-index.ts';

describe('the OpenSearch index layout', () => {
  it('stores a vector as base64 float32 bytes and reads back the same float32 values', () => {
    const vector = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i * 1.7) / (1 + i) - 1e-7 * i);
    const text = vectorToBase64(vector);
    expect(text.length).toBe(4 * Math.ceil((384 * 4) / 3));
    expect(vectorFromBase64(text)).toEqual(vector);
  });

  it("undoes the k-NN plugin's inner-product score transform on both sides of zero", () => {
    for (const ip of [-0.9, -0.25, 0, 0.3, 0.999]) {
      const score = ip >= 0 ? ip + 1 : 1 / (1 - ip);
      expect(innerProductOfKnnScore(score)).toBeCloseTo(ip, 12);
    }
  });

  it("builds the analyzer from the corpus's options: only the filters they ask for", () => {
    const body = (analyzer: Parameters<typeof documentIndexBody>[0]['analyzer']) => documentIndexBody({ analyzer, bm25: { k1: 1.2, b: 0.75 }, shards: 2 });
    const full = body({ lowercase: true, stopWords: 'english', stemming: 'porter' });
    expect(full.settings.analysis.analyzer.dsw_text.filter).toEqual(['lowercase', 'dsw_english_stop', 'porter_stem']);
    expect(full.settings.index).toMatchObject({ number_of_shards: 2, similarity: { dsw_bm25: { type: 'BM25', k1: 1.2, b: 0.75 } } });
    expect(full.mappings.properties).not.toHaveProperty('vector');
    expect(body({ lowercase: false, stopWords: 'none', stemming: 'none' }).settings.analysis.analyzer.dsw_text.filter).toEqual([]);
  });
});
