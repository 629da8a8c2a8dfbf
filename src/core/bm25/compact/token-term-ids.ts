import { charKind, SEPARATOR, SINGLE_WORD, SURROGATE, WORD_PART, type Analyzer } from '../../text/index.ts';

const EMPTY = -1;
// FNV-1a over UTF-16 code units
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** Term id of a token the analyzer drops (a stop word). */
const DROPPED = -1;

/**
 * The index terms of a text as term ids, through a table from tokens as written to term ids: a token seen before
 * is found by a hash computed while the text is scanned, without making a string, lower-casing, stemming or a Map
 * lookup (those dominated indexing). Words are split as the analyzer's expression splits them, a code unit at a
 * time (`charKind`); a text with characters outside the Basic Multilingual Plane goes through `Analyzer.terms`.
 * The ids are the same, in the same order, as `analyzer.terms(text).map(termId)`.
 */
export class TokenTermIds {
  private slots = new Int32Array(1 << 16).fill(EMPTY);
  private readonly tokens: string[] = [];
  private hashes = new Int32Array(1 << 15);
  private termIds = new Int32Array(1 << 15);
  private scratch = new Uint32Array(1 << 10);

  constructor(
    private readonly analyzer: Analyzer,
    private readonly termId: (term: string) => number,
  ) {}

  /** The term ids of `text`, in a buffer reused by the next call, and how many there are. */
  idsOf(text: string): { ids: Uint32Array; count: number } {
    const n = text.length;
    let count = 0;
    let start = -1;
    let hash = 0;
    for (let i = 0; i <= n; i++) {
      const kind = i < n ? charKind(text.charCodeAt(i)) : SEPARATOR;
      if (kind === WORD_PART) {
        if (start < 0) {
          start = i;
          hash = FNV_OFFSET;
        }
        hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
        continue;
      }
      if (kind === SURROGATE) {
        // A character outside the Basic Multilingual Plane (before the word it may belong to is looked up): the
        // analyzer's expression splits the whole text.
        count = 0;
        for (const term of this.analyzer.terms(text)) count = this.append(count, this.termId(term));
        break;
      }
      if (start >= 0) {
        const t = this.lookup(text, start, i, hash);
        if (t !== DROPPED) count = this.append(count, t);
        start = -1;
      }
      if (kind === SINGLE_WORD) {
        const t = this.lookup(text, i, i + 1, Math.imul(FNV_OFFSET ^ text.charCodeAt(i), FNV_PRIME));
        if (t !== DROPPED) count = this.append(count, t);
      }
    }
    return { ids: this.scratch, count };
  }

  private append(count: number, id: number): number {
    if (count === this.scratch.length) {
      const grown = new Uint32Array(count * 2);
      grown.set(this.scratch);
      this.scratch = grown;
    }
    this.scratch[count] = id;
    return count + 1;
  }

  /** The term id of the token `text[start, end)` whose hash is `hash` (open addressing, linear probing). */
  private lookup(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) return this.insert(text.slice(start, end), hash, slot);
      if (this.hashes[entry] !== hash) continue;
      const token = this.tokens[entry]!;
      if (token.length !== length) continue;
      let same = true;
      for (let k = 0; k < length; k++) {
        if (token.charCodeAt(k) !== text.charCodeAt(start + k)) {
          same = false;
          break;
        }
      }
      if (same) return this.termIds[entry]!;
    }
  }

  private insert(token: string, hash: number, slot: number): number {
    const term = this.analyzer.term(token);
    const id = term === null ? DROPPED : this.termId(term);
    const entry = this.tokens.length;
    this.tokens.push(token);
    if (entry === this.hashes.length) {
      this.hashes = grow(this.hashes);
      this.termIds = grow(this.termIds);
    }
    this.hashes[entry] = hash;
    this.termIds[entry] = id;
    this.slots[slot] = entry;
    // at most half full, so probes stay short
    if (2 * this.tokens.length > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.tokens.length; entry++) {
      let slot = this.hashes[entry]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = entry;
    }
    this.slots = slots;
  }
}

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}
