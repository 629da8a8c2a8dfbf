import { joinDocs, narrowLengths, packFreqs, splitDocs, unpackFreqs, type CompactIndex, type FreqArray } from './compact-index.ts';

/**
 * Postings as stored (IndexedDB, the CLI's cache, corpus snapshots): per term, each posting is one LEB128 varint
 * of `gap · 2 + (freq > 1)`, where `gap` is the document number minus the previous one's (the first counts from
 * −1), followed by a varint of `freq − 2` when the flag is set. Most postings of natural text have frequency 1
 * and a gap under 64, so a posting takes about 1.3 bytes instead of the 5 or more of the searched arrays (`Uint32Array`
 * documents, frequencies in 8 bits or more). Unpacked once when an index is restored.
 */

/** The postings of `termStarts` (term `t`'s at `[termStarts[t], termStarts[t + 1])`) as one byte stream. */
export function packPostings(termStarts: Uint32Array, docs: Uint32Array, freqs: FreqArray): Uint8Array {
  const terms = termStarts.length - 1;
  // about 1.3 bytes a posting in natural text; doubled when short
  let out = new Uint8Array(Math.max(64, Math.ceil((terms >= 0 ? termStarts[terms]! : 0) * 1.5)));
  let at = 0;
  const write = (value: number) => {
    if (at + 5 > out.length) {
      const grown = new Uint8Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    while (value >= 128) {
      out[at++] = (value % 128) | 128;
      value = Math.floor(value / 128);
    }
    out[at++] = value;
  };
  for (let t = 0; t < terms; t++) {
    let previous = -1;
    for (let p = termStarts[t]!, end = termStarts[t + 1]!; p < end; p++) {
      const doc = docs[p]!;
      const freq = freqs[p]!;
      write((doc - previous) * 2 + (freq > 1 ? 1 : 0));
      if (freq > 1) write(freq - 2);
      previous = doc;
    }
  }
  return out.slice(0, at);
}

/**
 * The searched arrays back from `packPostings`' bytes. Throws, saying where, when the bytes do not hold exactly
 * the postings `termStarts` counts or a document number reaches `documentCount`.
 */
export function unpackPostings(
  termStarts: Uint32Array,
  bytes: Uint8Array,
  documentCount: number,
): { docs: Uint32Array; freqs: FreqArray } {
  const terms = termStarts.length - 1;
  const total = terms >= 0 ? termStarts[terms]! : 0;
  const docs = new Uint32Array(total);
  // the narrowest frequencies that hold them all (as the builder chooses), widened when one does not fit
  let freqs: FreqArray = new Uint8Array(total);
  let widest = 0xff;
  const reader = new VarintReader(bytes);
  const damaged = (why: string) => new Error(`The stored BM25 postings are damaged (${why}); index the corpus again.`);
  for (let t = 0; t < terms; t++) {
    let previous = -1;
    const end = termStarts[t + 1]!;
    for (let p = termStarts[t]!; p < end; p++) {
      const value = reader.next();
      if (value < 0) throw damaged(`they end inside term ${t}`);
      // the gap and the frequency flag (integer arithmetic while the value fits in 31 bits)
      const small = value < 0x40000000;
      const gap = small ? value >>> 1 : Math.floor(value / 2);
      const doc = previous + gap;
      if (gap === 0 || doc >= documentCount) throw damaged(`document ${doc} in term ${t}`);
      let freq = 1;
      if (small ? (value & 1) === 1 : value % 2 === 1) {
        const extra = reader.next();
        if (extra < 0) throw damaged(`they end inside term ${t}`);
        freq = extra + 2;
      }
      docs[p] = doc;
      if (freq > widest) {
        freqs = freq > 0xffff ? Uint32Array.from(freqs) : Uint16Array.from(freqs);
        widest = freq > 0xffff ? 0xffffffff : 0xffff;
      }
      freqs[p] = freq;
      previous = doc;
    }
  }
  if (reader.at !== bytes.length) throw damaged(`${bytes.length - reader.at} bytes left over`);
  return { docs, freqs };
}

/** Reads LEB128 varints one after another. */
class VarintReader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  /** The next value, or −1 when the bytes end inside it. */
  next(): number {
    const bytes = this.bytes;
    if (this.at >= bytes.length) return -1;
    let byte = bytes[this.at]!;
    // most values are one byte
    if (byte < 128) {
      this.at++;
      return byte;
    }
    let value = 0;
    let scale = 1;
    do {
      if (this.at >= bytes.length) return -1;
      byte = bytes[this.at++]!;
      value += (byte & 127) * scale;
      scale *= 128;
    } while (byte & 128);
    return value;
  }
}

/** A `CompactIndex` as stored: its postings packed, everything else as searched. */
export interface PackedCompactIndex extends Omit<CompactIndex, 'postingDocs' | 'postingFreqs'> {
  /** `packPostings` of the index's postings. */
  postings: Uint8Array;
}

export function packIndex(index: CompactIndex): PackedCompactIndex {
  const { postingDocs, postingFreqs, ...rest } = index;
  const count = index.termStarts[index.termStarts.length - 1]!;
  return { ...rest, postings: packPostings(index.termStarts, joinDocs(index.termStarts, postingDocs), unpackFreqs(postingFreqs, count)) };
}

export function unpackIndex(packed: PackedCompactIndex): CompactIndex {
  const { postings, ...rest } = packed;
  const { docs, freqs } = unpackPostings(packed.termStarts, postings, packed.documentCount);
  return {
    ...rest,
    lengths: narrowLengths(rest.lengths),
    postingDocs: splitDocs(packed.termStarts, docs),
    postingFreqs: packFreqs(freqs),
  };
}
