// Shared by the dense tests only (not exported from the core).
import type { EmbeddingModelInfo } from '../embedding/model-info.ts';

/** A model identity for tests. */
export function testModel(dimensions: number, overrides: Partial<EmbeddingModelInfo> = {}): EmbeddingModelInfo {
  return { modelId: 'test-model', dtype: 'fp32', pooling: 'mean', dimensions, prefixes: { query: '', passage: '' }, ...overrides };
}

/** Seeded uniform(-0.5, 0.5) generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

/** `count × dims` random values, row-major. */
export function randomRows(random: () => number, count: number, dims: number): Float32Array {
  return Float32Array.from({ length: count * dims }, random);
}
