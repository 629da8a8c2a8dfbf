import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../eval/index.ts';
import { freqAt, indexBytes, joinDocs, narrowLengths, packFreqs, positionOf, splitDocs, unpackFreqs } from './compact-index.ts';
import { CompactIndexBuilder } from './index-builder.ts';

/** Terms of random sizes, each with ascending random document numbers below `documents`. */
function randomPostings(seed: number, terms: number, documents: number) {
  const next = mulberry32(seed);
  const termStarts = new Uint32Array(terms + 1);
  const docs: number[] = [];
  for (let t = 0; t < terms; t++) {
    const wanted = next() % 3 === 0 ? 1 + (next() % 3) : next() % 400;
    const set = new Set<number>();
    while (set.size < wanted) set.add(next() % documents);
    docs.push(...[...set].sort((a, b) => a - b));
    termStarts[t + 1] = docs.length;
  }
  return { termStarts, docs: Uint32Array.from(docs) };
}

describe('PostingDocs (document numbers as 16-bit low parts in runs)', () => {
  it('gives back every document number, and finds each posting, whatever the width of the low part', () => {
    const { termStarts, docs } = randomPostings(7, 60, 300_000);
    for (const bits of [1, 4, 11, 16]) {
      const split = splitDocs(termStarts, docs, bits);
      expect(joinDocs(termStarts, split)).toEqual(docs);
      expect(split.low.every((low) => low < 2 ** bits)).toBe(true);
      // one run per term and distinct high part, each ending where the next begins
      for (let t = 0; t < 60; t++) {
        const highs = new Set(Array.from(docs.subarray(termStarts[t]!, termStarts[t + 1]!), (d) => Math.floor(d / 2 ** bits)));
        expect(split.termRuns[t + 1]! - split.termRuns[t]!).toBe(highs.size);
        if (highs.size > 0) expect(split.runEnd[split.termRuns[t + 1]! - 1]).toBe(termStarts[t + 1]);
      }
      const index = { termStarts, postingDocs: split } as Parameters<typeof positionOf>[0];
      const next = mulberry32(bits);
      for (let i = 0; i < 300; i++) {
        const term = next() % 60;
        const p = termStarts[term]! + (next() % Math.max(1, termStarts[term + 1]! - termStarts[term]!));
        if (p < termStarts[term + 1]!) expect(positionOf(index, term, docs[p]!)).toBe(p);
        const doc = next() % 300_000;
        const at = docs.subarray(termStarts[term]!, termStarts[term + 1]!).indexOf(doc);
        expect(positionOf(index, term, doc)).toBe(at < 0 ? -1 : termStarts[term]! + at);
      }
    }
    expect(splitDocs(termStarts, docs).runHigh).toBeInstanceOf(Uint16Array);
    // high parts past 16 bits (documents past 2^17 with 1-bit low parts) take 32
    expect(splitDocs(termStarts, docs, 1).runHigh).toBeInstanceOf(Uint32Array);
    expect(() => splitDocs(termStarts, docs, 17)).toThrow('bits must be 1…16');
  });
});

describe('PostingFreqs (frequencies in 4 bits, larger ones beside)', () => {
  it('gives back every frequency, at 15 and around it, small and past 16 bits', () => {
    const next = mulberry32(5);
    const freqs = Uint32Array.from({ length: 2001 }, (_, p) => (p % 97 === 0 ? 14 + (p % 4) : p === 1000 ? 70_000 : 1 + (next() % 3 === 0 ? next() % 40 : 0)));
    const packed = packFreqs(freqs);
    expect(packed.nibbles).toHaveLength(1001);
    for (let p = 0; p < freqs.length; p++) expect(freqAt(packed, p)).toBe(freqs[p]);
    expect([...packed.largeAt]).toEqual([...freqs.keys()].filter((p) => freqs[p]! > 15));
    const back = unpackFreqs(packed, freqs.length);
    expect(back).toBeInstanceOf(Uint32Array);
    expect([...back]).toEqual([...freqs]);
    const small = unpackFreqs(packFreqs([1, 2, 15, 16, 255]), 5);
    expect(small).toBeInstanceOf(Uint8Array);
    expect([...small]).toEqual([1, 2, 15, 16, 255]);
  });
});

describe('indexBytes and narrowLengths', () => {
  it('counts a string of characters below U+0100 at a byte a character, others at two; lengths in 16 bits while they fit', () => {
    const build = (ids: string[]) => {
      const builder = new CompactIndexBuilder();
      ids.forEach((id) => builder.add(id, ['same']));
      return builder.build();
    };
    const latin = build(['caf\u00e9-1', 'caf\u00e9-2']);
    const wide = build(['caf\u0113-1', 'caf\u0113-2']);
    expect(indexBytes(wide) - indexBytes(latin)).toBe(latin.ids.text.length);
    expect(latin.lengths).toBeInstanceOf(Uint16Array);
    expect(narrowLengths(Uint32Array.of(3, 65_535))).toBeInstanceOf(Uint16Array);
    expect(narrowLengths(Uint32Array.of(3, 65_536))).toBeInstanceOf(Uint32Array);
  });
});
