import { describe, expect, it } from 'vitest';
import { fuse, type FusionConfig } from './fuse.ts';

describe('fuse', () => {
  const l1 = [{ id: 'a', score: 2 }, { id: 'b', score: 1 }];
  const l2 = [{ id: 'b', score: 0.9 }];

  it('dispatches to RRF', () => {
    const fused = fuse(l1, l2, { method: 'rrf', k: 60, fetchK: 2 });
    // a: 1/61 + 1/63; b: 1/62 + 1/61.
    expect(fused.map((d) => d.id)).toEqual(['b', 'a']);
    expect(fused[0].score).toBeCloseTo(1 / 62 + 1 / 61, 15);
  });

  it('dispatches to convex combination and applies topK', () => {
    // mm: n1 a 1, b 0; n2 b 0.5 (single score), a 0.
    const fused = fuse(l1, l2, { method: 'cc', weight: 0.5, normalizeMethod: 'mm' }, 1);
    expect(fused).toEqual([{ id: 'a', score: 0.5 }]);
  });

  it('rejects an unknown method', () => {
    expect(() => fuse(l1, l2, { method: 'borda' } as unknown as FusionConfig)).toThrow('Unknown fusion method: borda');
  });
});
