import { describe, expect, it } from 'vitest';
import { FusionRetriever } from './fusion-retriever.ts';
import type { Retriever } from './retriever.ts';
import type { ScoredDoc } from '../ranking/index.ts';

/** A retriever with fixed answers that records the depth it was asked for. */
function fixed(pipeline: string, results: ScoredDoc[]): Retriever & { asked: number[] } {
  const asked: number[] = [];
  return {
    pipeline,
    config: { answers: results.length },
    asked,
    async search(_text: string, k: number) {
      asked.push(k);
      return results.slice(0, k);
    },
  };
}

describe('FusionRetriever', () => {
  it('RRF: asks both children for topK × multiplier and fuses as the reference', async () => {
    const first = fixed('dense', [
      { id: 'a', score: 0.9 },
      { id: 'b', score: 0.8 },
    ]);
    const second = fixed('bm25', [{ id: 'b', score: 7 }]);
    const rrf = new FusionRetriever(first, second, { method: 'rrf', k: 60 }, 2);
    const hits = await rrf.search('q', 2);
    expect(first.asked).toEqual([4]);
    expect(second.asked).toEqual([4]);
    // b: 1/62 + 1/61 (in both lists); a: 1/61 + 1/(60 + fetchK 4 + 1) (list 1 only).
    expect(hits.map((h) => h.id)).toEqual(['b', 'a']);
    expect(hits[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(hits[1]!.score).toBeCloseTo(1 / 61 + 1 / 65, 12);
  });

  it('CC: convex combination of min-max normalised scores with weight on pipeline 1', async () => {
    const first = fixed('bm25', [
      { id: 'a', score: 3 },
      { id: 'b', score: 1 },
    ]);
    const second = fixed('dense', [
      { id: 'b', score: 0.5 },
      { id: 'c', score: 0.2 },
    ]);
    const cc = new FusionRetriever(first, second, { method: 'cc', weight: 0.7, normalizeMethod: 'mm' }, 3);
    const hits = await cc.search('q', 2);
    expect(first.asked).toEqual([6]);
    // a: 0.7·1 + 0.3·0 = 0.7; b: 0.7·0 + 0.3·1 = 0.3; c: 0 + 0.3·0 = 0 (cut by top 2).
    expect(hits).toEqual([
      { id: 'a', score: expect.closeTo(0.7, 12) },
      { id: 'b', score: expect.closeTo(0.3, 12) },
    ]);
  });

  it('records the fusion settings and both children’s configurations', () => {
    const cc = new FusionRetriever(fixed('bm25', []), fixed('dense', []), {
      method: 'cc',
      weight: 0.4,
      normalizeMethod: 'tmm',
      pipeline1Min: 0,
      pipeline2Min: -1,
    });
    expect(cc.pipeline).toBe('cc');
    expect(cc.config).toEqual({
      method: 'cc',
      weight: 0.4,
      normalizeMethod: 'tmm',
      pipeline1Min: 0,
      pipeline2Min: -1,
      fetchKMultiplier: 2,
      pipeline1: { pipeline: 'bm25', config: { answers: 0 } },
      pipeline2: { pipeline: 'dense', config: { answers: 0 } },
    });
  });

  it('rejects settings the reference rejects, before any search', () => {
    const a = fixed('bm25', []);
    const b = fixed('dense', []);
    expect(() => new FusionRetriever(a, b, { method: 'cc', normalizeMethod: 'tmm', pipeline2Min: 0 })).toThrow('TMM normalization requires pipeline_1_min');
    expect(() => new FusionRetriever(a, b, { method: 'cc', normalizeMethod: 'tmm', pipeline1Min: 0 })).toThrow('TMM normalization requires pipeline_2_min');
    expect(() => new FusionRetriever(a, b, { method: 'cc', weight: 1.5 })).toThrow('weight must be between 0 and 1');
    expect(() => new FusionRetriever(a, b, { method: 'rrf', k: -1 })).toThrow('rrf k must be a non-negative number');
    expect(() => new FusionRetriever(a, b, { method: 'rrf' }, 0)).toThrow('fetchKMultiplier');
  });

  it('stops between the children when cancelled', async () => {
    const controller = new AbortController();
    const first: Retriever = {
      pipeline: 'x',
      config: {},
      async search() {
        controller.abort(new Error('cancelled'));
        return [];
      },
    };
    const second = fixed('y', []);
    await expect(new FusionRetriever(first, second, { method: 'rrf' }).search('q', 1, controller.signal)).rejects.toThrow('cancelled');
    expect(second.asked).toEqual([]);
  });
});
