import { describe, expect, it } from 'vitest';
import { poolHiddenStates, tokenVectors, type HiddenStates } from './pooling.ts';

// Two texts, sequence 3, width 2. Text 0 has 3 real tokens, text 1 has 2 (+1 padding).
const states: HiddenStates = {
  data: [
    1, 0, /**/ 3, 4, /**/ 2, 2, // text 0
    0, 2, /**/ 4, 0, /**/ 100, 100, // text 1 (last token is padding)
  ],
  mask: [1n, 1n, 1n, 1n, 1n, 0n],
  batch: 2,
  sequence: 3,
  dimensions: 2,
};

describe('poolHiddenStates', () => {
  it('mean pools only attended tokens', () => {
    expect(Array.from(poolHiddenStates(states, 'mean', false))).toEqual([2, 2, 2, 1]);
  });
  it('mean pools then normalises', () => {
    const out = poolHiddenStates(states, 'mean', true);
    [Math.SQRT1_2, Math.SQRT1_2, 2 / Math.sqrt(5), 1 / Math.sqrt(5)].forEach((v, i) => expect(out[i]).toBeCloseTo(v, 6));
  });
  it('cls takes the first token', () => {
    expect(Array.from(poolHiddenStates(states, 'cls', false))).toEqual([1, 0, 0, 2]);
    expect(Array.from(poolHiddenStates(states, 'cls', true))).toEqual([1, 0, 0, 1]);
  });
  it('an all-padding row stays zero', () => {
    const empty = { ...states, batch: 1, mask: [0, 0, 0] };
    expect(Array.from(poolHiddenStates(empty, 'mean', true))).toEqual([0, 0]);
  });
});

describe('tokenVectors', () => {
  it('drops padding and normalises each token', () => {
    const [a, b] = tokenVectors(states, true);
    expect(a.count).toBe(3);
    expect(b.count).toBe(2);
    const expectedA = [1, 0, 0.6, 0.8, Math.SQRT1_2, Math.SQRT1_2];
    expectedA.forEach((v, i) => expect(a.vectors[i]).toBeCloseTo(v, 6));
    expect(Array.from(b.vectors)).toEqual([0, 1, 1, 0]);
  });
  it('keeps raw values without normalisation', () => {
    expect(Array.from(tokenVectors(states, false)[1].vectors)).toEqual([0, 2, 4, 0]);
  });
});
