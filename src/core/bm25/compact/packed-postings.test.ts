import { describe, expect, it } from 'vitest';
import { compactFreqs } from './compact-index.ts';
import { packPostings, unpackPostings } from './packed-postings.ts';

/** Random postings: sorted distinct documents per term, frequencies mostly 1. */
function randomPostings(seed: number, terms: number, documentCount: number, maxFreq: number) {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const termStarts = new Uint32Array(terms + 1);
  const docs: number[] = [];
  const freqs: number[] = [];
  for (let t = 0; t < terms; t++) {
    const chosen = new Set<number>();
    const count = Math.floor(random() * Math.min(documentCount, 200));
    while (chosen.size < count) chosen.add(Math.floor(random() * documentCount));
    for (const doc of [...chosen].sort((a, b) => a - b)) {
      docs.push(doc);
      freqs.push(random() < 0.9 ? 1 : 1 + Math.floor(random() * maxFreq));
    }
    termStarts[t + 1] = docs.length;
  }
  // the narrowest array, as the builder chooses it
  return { termStarts, docs: Uint32Array.from(docs), freqs: compactFreqs(Uint32Array.from(freqs), Math.max(0, ...freqs)) };
}

describe('packed postings', () => {
  it('round-trip to the same arrays, empty terms, large gaps and wide frequencies included', () => {
    const kinds = new Set<string>();
    for (const [documentCount, maxFreq] of [[50, 3], [5_000, 300], [3_000_000_000, 100_000]] as const) {
      const { termStarts, docs, freqs } = randomPostings(documentCount, 60, documentCount, maxFreq);
      const back = unpackPostings(termStarts, packPostings(termStarts, docs, freqs), documentCount);
      expect(back.docs).toEqual(docs);
      expect(back.freqs).toEqual(freqs);
      expect(back.freqs.constructor).toBe(freqs.constructor);
      kinds.add(freqs.constructor.name);
    }
    expect([...kinds]).toEqual(['Uint8Array', 'Uint16Array', 'Uint32Array']);
  });

  it('widen the frequencies as a wider one comes, keeping those before it', () => {
    const termStarts = Uint32Array.of(0, 2, 3, 4);
    const docs = Uint32Array.of(0, 1, 1, 2);
    const freqs = Uint32Array.of(1, 255, 300, 70_000);
    const back = unpackPostings(termStarts, packPostings(termStarts, docs, freqs), 3);
    expect(back.freqs).toBeInstanceOf(Uint32Array);
    expect([...back.freqs]).toEqual([1, 255, 300, 70_000]);
    const narrow = unpackPostings(termStarts.subarray(0, 3), packPostings(termStarts.subarray(0, 3), docs, freqs), 3);
    expect(narrow.freqs).toBeInstanceOf(Uint16Array);
    expect([...narrow.freqs]).toEqual([1, 255, 300]);
  });

  it('take one byte for a posting of frequency 1 and a gap under 64', () => {
    const termStarts = Uint32Array.of(0, 3, 5);
    const bytes = packPostings(termStarts, Uint32Array.of(0, 5, 68, 1, 2), Uint8Array.of(1, 1, 1, 2, 1));
    // 0 (gap 1), 5 (gap 5), 68 (gap 63); then 1 (gap 2, freq 2: flag and a byte for 0), 2 (gap 1)
    expect([...bytes]).toEqual([2, 10, 126, 5, 0, 2]);
  });

  it('refuse damaged bytes, saying what is wrong', () => {
    const { termStarts, docs, freqs } = randomPostings(7, 20, 1_000, 5);
    const bytes = packPostings(termStarts, docs, freqs);
    expect(() => unpackPostings(termStarts, bytes.subarray(0, bytes.length - 1), 1_000)).toThrow(/damaged \(they end inside term \d+\)/);
    expect(() => unpackPostings(termStarts, Uint8Array.of(...bytes, 2), 1_000)).toThrow('damaged (1 bytes left over)');
    expect(() => unpackPostings(termStarts, bytes, 10)).toThrow(/damaged \(document \d+ in term \d+\); index the corpus again/);
  });
});
