// Seeded random vectors, shared by the core tests and the bench's synthetic embedding sets.

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

/** Scales row `offset / dims` of `target` to unit length (a zero row stays zero). */
export function normalizeRow(target: Float32Array<ArrayBufferLike>, offset: number, dims: number): void {
  let sum = 0;
  for (let j = 0; j < dims; j++) sum += target[offset + j]! * target[offset + j]!;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let j = 0; j < dims; j++) target[offset + j]! *= scale;
}

/** `count` unit vectors with uniform(-0.5, 0.5) components, into `target` (row-major). */
export function unitRows(random: () => number, count: number, dims: number, target: Float32Array<ArrayBufferLike> = new Float32Array(count * dims)): Float32Array {
  for (let r = 0; r < count; r++) {
    for (let j = 0; j < dims; j++) target[r * dims + j] = random();
    normalizeRow(target, r * dims, dims);
  }
  return target as Float32Array;
}
