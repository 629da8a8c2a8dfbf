/**
 * A query could not be embedded (the model failed at inference time). GQR reacts to it by letting the
 * complementary list stand in for the primary (reference `EmbeddingError`).
 */
export class EmbeddingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}
