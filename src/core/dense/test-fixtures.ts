// Shared by the dense tests only (not exported from the core).
import type { EmbeddingModelInfo } from '../embedding/index.ts';

/** A model identity for tests. */
export function testModel(dimensions: number, overrides: Partial<EmbeddingModelInfo> = {}): EmbeddingModelInfo {
  return { modelId: 'test-model', dtype: 'fp32', pooling: 'mean', dimensions, prefixes: { query: '', passage: '' }, ...overrides };
}
