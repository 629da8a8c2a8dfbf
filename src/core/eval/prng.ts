/**
 * mulberry32: a small, fast 32-bit PRNG (Tommy Ettinger's). Not cryptographic; used so that significance
 * tests are reproducible from a seed. Returns a generator of uniform integers in [0, 2^32).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}
