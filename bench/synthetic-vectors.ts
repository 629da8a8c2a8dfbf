// Deterministic synthetic embedding sets for the dense bench: uniform directions (the hardest case for a first
// pass: every score is close to every other) and clustered vectors with the anisotropy of real sentence
// embeddings (a shared mean direction, variance decaying across dimensions, topical clusters).

import { normalizeRow, seededRandom } from '../src/test-support/random-vectors.ts';

// Approximately normal values from the sum of four uniforms (enough for a shape, and fast).
function gaussian(random: () => number): number {
  return (random() + random() + random() + random()) * 1.732;
}

/** A clustered, anisotropic distribution: draw documents and queries from the same one. */
export class ClusteredVectors {
  private readonly centers: Float32Array;
  private readonly spread: Float32Array;
  private readonly mean: Float32Array;

  constructor(
    readonly dims: number,
    readonly clusters: number,
    seed: number,
  ) {
    const random = seededRandom(seed);
    // Dimension j's scale falls as 1/sqrt(j+1): a few directions carry most of the variance, as in real models.
    this.spread = Float32Array.from({ length: dims }, (_, j) => 1 / Math.sqrt(j + 1));
    this.mean = Float32Array.from({ length: dims }, () => gaussian(random) * 0.6);
    this.centers = new Float32Array(clusters * dims);
    for (let c = 0; c < clusters; c++) for (let j = 0; j < dims; j++) this.centers[c * dims + j] = gaussian(random) * this.spread[j]!;
  }

  /** `count` unit vectors: shared mean + a cluster centre + noise half as wide as the centres' spread. */
  rows(random: () => number, count: number, target: Float32Array<ArrayBufferLike> = new Float32Array(count * this.dims)): Float32Array {
    const dims = this.dims;
    for (let r = 0; r < count; r++) {
      const c = Math.floor((random() + 0.5) * this.clusters) % this.clusters;
      for (let j = 0; j < dims; j++) target[r * dims + j] = this.mean[j]! + this.centers[c * dims + j]! + gaussian(random) * this.spread[j]! * 0.5;
      normalizeRow(target, r * dims, dims);
    }
    return target as Float32Array;
  }
}
