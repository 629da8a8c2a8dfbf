import type { TokenEmbedding } from './model-info.ts';

/** A model's last hidden state for a padded batch: `batch × sequence × dimensions` values, row-major. */
export interface HiddenStates {
  /** The hidden-state values. */
  data: ArrayLike<number>;
  /** The attention mask, `batch × sequence` (1 = real token, 0 = padding); bigint as transformers.js returns it. */
  mask: ArrayLike<number | bigint>;
  /** Texts in the batch. */
  batch: number;
  /** Padded sequence length. */
  sequence: number;
  /** Hidden size. */
  dimensions: number;
}

/**
 * One vector per text (`batch × dimensions`, row-major), in float64 before the float32 store:
 * `mean` averages the attention-masked token vectors, `cls` takes the first token's.
 */
export function poolHiddenStates(states: HiddenStates, pooling: 'mean' | 'cls', normalize: boolean): Float32Array {
  const { data, mask, batch, sequence, dimensions: dims } = states;
  const out = new Float32Array(batch * dims);
  const acc = new Float64Array(dims);
  for (let i = 0; i < batch; i++) {
    acc.fill(0);
    if (pooling === 'cls') {
      const o = i * sequence * dims;
      for (let j = 0; j < dims; j++) acc[j] = data[o + j];
    } else {
      let tokens = 0;
      for (let t = 0; t < sequence; t++) {
        if (Number(mask[i * sequence + t]) === 0) continue;
        tokens++;
        const o = (i * sequence + t) * dims;
        for (let j = 0; j < dims; j++) acc[j] += data[o + j];
      }
      const scale = 1 / Math.max(tokens, 1e-9); // as transformers.js: an all-padding row stays zero
      for (let j = 0; j < dims; j++) acc[j] *= scale;
    }
    writeRow(acc, out, i * dims, normalize);
  }
  return out;
}

/** The attention-masked token vectors of every text in the batch (padding dropped), each normalised if asked. */
export function tokenVectors(states: HiddenStates, normalize: boolean): TokenEmbedding[] {
  const { data, mask, batch, sequence, dimensions: dims } = states;
  const acc = new Float64Array(dims);
  const result: TokenEmbedding[] = [];
  for (let i = 0; i < batch; i++) {
    const kept: number[] = [];
    for (let t = 0; t < sequence; t++) if (Number(mask[i * sequence + t]) !== 0) kept.push(t);
    const vectors = new Float32Array(kept.length * dims);
    kept.forEach((t, row) => {
      const o = (i * sequence + t) * dims;
      for (let j = 0; j < dims; j++) acc[j] = data[o + j];
      writeRow(acc, vectors, row * dims, normalize);
    });
    result.push({ vectors, count: kept.length });
  }
  return result;
}

function writeRow(acc: Float64Array, out: Float32Array, offset: number, normalize: boolean): void {
  let scale = 1;
  if (normalize) {
    let sumSquares = 0;
    for (let j = 0; j < acc.length; j++) sumSquares += acc[j] * acc[j];
    scale = 1 / Math.max(Math.sqrt(sumSquares), 1e-12);
  }
  for (let j = 0; j < acc.length; j++) out[offset + j] = acc[j] * scale;
}
