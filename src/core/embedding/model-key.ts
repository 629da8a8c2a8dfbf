import type { EmbeddingModelInfo } from './model-info.ts';

/**
 * The key an embedding set is stored under: every part of the model identity that changes the vectors
 * (model, weights, pooling, width, prefixes), so vectors of different models never share a key.
 */
export function embeddingModelKey(info: EmbeddingModelInfo): string {
  return JSON.stringify([info.modelId, info.dtype, info.pooling, info.dimensions, info.prefixes.query, info.prefixes.passage]);
}

/** The model id inside a key made by {@link embeddingModelKey} (the key itself when it is not one). */
export function modelIdOfKey(modelKey: string): string {
  try {
    const parts: unknown = JSON.parse(modelKey);
    if (Array.isArray(parts) && typeof parts[0] === 'string') return parts[0];
  } catch {
    // not a key made here: fall through
  }
  return modelKey;
}
