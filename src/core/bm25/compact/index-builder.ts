import { DOC_LOW_BITS, joinDocs, narrowLengths, packFreqs, splitDocs, unpackFreqs, type CompactIndex } from './compact-index.ts';
import { GrowableUint32 } from './growable.ts';
import { packStrings, unpackStrings } from './string-table.ts';

/** Postings of a run of documents, grouped by term id (ids of the builder, not sorted by name). */
interface SealedChunk {
  /** Vocabulary size when the chunk was sealed; terms seen later have no postings in it. */
  termCount: number;
  starts: Uint32Array;
  docs: Uint32Array;
  freqs: Uint32Array;
}

/** Postings buffered before a chunk is sealed (12 MB of pairs). */
const CHUNK_POSTINGS = 1 << 20;

/**
 * Builds a `CompactIndex` from analysed documents, a chunk at a time: postings go into flat buffers that are
 * grouped by term when a chunk fills, so that no per-term structure exists besides the vocabulary map.
 */
export class CompactIndexBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  private readonly ids: string[] = [];
  private readonly idSet = new Set<string>();
  private readonly lengths = new GrowableUint32();
  private averageLength = 0;
  private readonly sealed: SealedChunk[] = [];
  // The open chunk: one (term, doc, freq) triple per distinct term of each document.
  private readonly pairTerms: GrowableUint32;
  private readonly pairDocs: GrowableUint32;
  private readonly pairFreqs: GrowableUint32;
  // Per term: the last document that used it and where its pair is, to count repeats without a Map per document.
  private lastDoc = new Int32Array(1024).fill(-1);
  private lastPair = new Uint32Array(1024);

  constructor(private readonly chunkPostings = CHUNK_POSTINGS) {
    this.pairTerms = new GrowableUint32(Math.min(chunkPostings, CHUNK_POSTINGS));
    this.pairDocs = new GrowableUint32(Math.min(chunkPostings, CHUNK_POSTINGS));
    this.pairFreqs = new GrowableUint32(Math.min(chunkPostings, CHUNK_POSTINGS));
  }

  get documentCount(): number {
    return this.ids.length;
  }

  get termCount(): number {
    return this.termNames.length;
  }

  has(id: string): boolean {
    return this.idSet.has(id);
  }

  /** Adds one document given its index terms in order (repeats included). A known id throws. */
  add(id: string, terms: readonly string[]): void {
    this.refuseKnown(id);
    this.addTermIds(id, terms.map((term) => this.termId(term)), terms.length);
  }

  /** The id of `term`, numbered in first-seen order (a new term gets the next one). */
  termId(term: string): number {
    const t = this.termIds.get(term);
    return t === undefined ? this.newTerm(term) : t;
  }

  /** Adds one document given the `termId`s of its first `count` index terms, in order. A known id throws. */
  addTermIds(id: string, terms: ArrayLike<number>, count: number): void {
    this.refuseKnown(id);
    const doc = this.ids.length;
    this.ids.push(id);
    this.idSet.add(id);
    this.lengths.push(count);
    this.averageLength = (this.averageLength * doc + count) / (doc + 1);
    for (let i = 0; i < count; i++) {
      const t = terms[i]!;
      if (this.lastDoc[t] === doc) {
        const pair = this.lastPair[t]!;
        const freq = this.pairFreqs.get(pair) + 1;
        this.pairFreqs.set(pair, freq);
      } else {
        this.lastDoc[t] = doc;
        this.lastPair[t] = this.pairTerms.length;
        this.pairTerms.push(t);
        this.pairDocs.push(doc);
        this.pairFreqs.push(1);
      }
    }
    if (this.pairTerms.length >= this.chunkPostings) this.seal();
  }

  /** The finished index (`bits`: see `PostingDocs`). The builder is spent afterwards. */
  build(bits = DOC_LOW_BITS): CompactIndex {
    this.seal();
    const termCount = this.termNames.length;
    const order = Array.from({ length: termCount }, (_, t) => t).sort((a, b) =>
      this.termNames[a]! < this.termNames[b]! ? -1 : this.termNames[a]! > this.termNames[b]! ? 1 : 0,
    );
    const rank = new Uint32Array(termCount);
    for (let r = 0; r < termCount; r++) rank[order[r]!] = r;
    const termStarts = new Uint32Array(termCount + 1);
    for (const chunk of this.sealed) {
      for (let t = 0; t < chunk.termCount; t++) termStarts[rank[t]! + 1]! += chunk.starts[t + 1]! - chunk.starts[t]!;
    }
    for (let r = 0; r < termCount; r++) termStarts[r + 1]! += termStarts[r]!;
    const total = termStarts[termCount]!;
    const postingDocs = new Uint32Array(total);
    const freqs = new Uint32Array(total);
    const cursor = termStarts.slice(0, termCount);
    // Chunks hold consecutive document ranges, so appending chunk after chunk keeps postings in document order.
    while (this.sealed.length > 0) {
      const chunk = this.sealed.shift()!;
      for (let t = 0; t < chunk.termCount; t++) {
        const from = chunk.starts[t]!;
        const to = chunk.starts[t + 1]!;
        if (from === to) continue;
        const at = cursor[rank[t]!]!;
        if (to - from < 32) {
          for (let p = from, q = at; p < to; p++, q++) {
            postingDocs[q] = chunk.docs[p]!;
            freqs[q] = chunk.freqs[p]!;
          }
        } else {
          postingDocs.set(chunk.docs.subarray(from, to), at);
          freqs.set(chunk.freqs.subarray(from, to), at);
        }
        cursor[rank[t]!] = at + (to - from);
      }
    }
    return {
      documentCount: this.ids.length,
      averageLength: this.averageLength,
      ids: packStrings(this.ids),
      lengths: narrowLengths(this.lengths.toArray()),
      terms: packStrings(order.map((t) => this.termNames[t]!)),
      termStarts,
      postingDocs: splitDocs(termStarts, postingDocs, bits),
      postingFreqs: packFreqs(freqs),
    };
  }

  /** A builder that continues an existing index (documents added later are numbered after its own). */
  static extending(index: CompactIndex, chunkPostings = CHUNK_POSTINGS): CompactIndexBuilder {
    const builder = new CompactIndexBuilder(chunkPostings);
    const terms = unpackStrings(index.terms);
    for (const term of terms) builder.newTerm(term);
    for (const id of unpackStrings(index.ids)) {
      builder.ids.push(id);
      builder.idSet.add(id);
    }
    for (const length of index.lengths) builder.lengths.push(length);
    builder.averageLength = index.averageLength;
    const freqs = unpackFreqs(index.postingFreqs, index.termStarts[terms.length]!);
    builder.sealed.push({
      termCount: terms.length,
      starts: index.termStarts,
      docs: joinDocs(index.termStarts, index.postingDocs),
      freqs: Uint32Array.from(freqs),
    });
    return builder;
  }

  /** Throws when `id` is already indexed (before anything of its document is taken in). */
  refuseKnown(id: string): void {
    if (this.idSet.has(id)) throw new Error(`Duplicate document id ${id} in the BM25 index`);
  }

  private newTerm(term: string): number {
    const t = this.termNames.length;
    this.termNames.push(term);
    this.termIds.set(term, t);
    if (t >= this.lastDoc.length) {
      const lastDoc = new Int32Array(this.lastDoc.length * 2).fill(-1);
      lastDoc.set(this.lastDoc);
      this.lastDoc = lastDoc;
      const lastPair = new Uint32Array(this.lastPair.length * 2);
      lastPair.set(this.lastPair);
      this.lastPair = lastPair;
    }
    return t;
  }

  /** Groups the open chunk's pairs by term (a stable counting sort, so document order is kept). */
  private seal(): void {
    const n = this.pairTerms.length;
    if (n === 0) return;
    const termCount = this.termNames.length;
    const starts = new Uint32Array(termCount + 1);
    for (let i = 0; i < n; i++) starts[this.pairTerms.get(i) + 1]!++;
    for (let t = 0; t < termCount; t++) starts[t + 1]! += starts[t]!;
    const cursor = starts.slice(0, termCount);
    const docs = new Uint32Array(n);
    const freqs = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const at = cursor[this.pairTerms.get(i)]!++;
      docs[at] = this.pairDocs.get(i);
      freqs[at] = this.pairFreqs.get(i);
    }
    this.sealed.push({ termCount, starts, docs, freqs });
    this.pairTerms.clear();
    this.pairDocs.clear();
    this.pairFreqs.clear();
  }
}
