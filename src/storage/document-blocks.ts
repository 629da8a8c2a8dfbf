// Documents stored as blocks: one IndexedDB row per loaded batch (500 documents), plus one directory row per
// corpus. A row per document costs Chromium about a hundred times more per document to write (one request, one
// IPC message and one LevelDB entry each), which made storing documents most of a large load's time.
import type { CorpusDocument } from '../core/index.ts';

/** One block: the documents numbered `start`, `start + 1`, … in load order. */
export interface StoredDocumentBlock {
  corpusId: string;
  start: number;
  documents: CorpusDocument[];
}

/** The directory row (`start` −1): every id in load order as one string plus end offsets, and the blocks' starts. */
export interface StoredDocumentDirectory {
  corpusId: string;
  start: -1;
  idText: string;
  idEnds: Uint32Array;
  blockStarts: Uint32Array;
}

export const DIRECTORY_START = -1;

/** Collects the directory of a corpus while its batches are written. */
export class DirectoryBuilder {
  private count = 0;
  private readonly texts: string[] = [];
  private ends: Uint32Array = new Uint32Array(1024);
  private textLength = 0;
  private readonly starts: number[] = [];

  /** Registers the next block's documents; returns its start. */
  add(documents: readonly CorpusDocument[]): number {
    const start = this.count;
    this.starts.push(start);
    if (this.ends.length < start + documents.length) {
      const grown = new Uint32Array(Math.max(this.ends.length * 2, start + documents.length));
      grown.set(this.ends);
      this.ends = grown;
    }
    let text = '';
    for (let i = 0; i < documents.length; i++) {
      const id = documents[i]!.id;
      text += id;
      this.textLength += id.length;
      this.ends[start + i] = this.textLength;
    }
    this.texts.push(text);
    this.count += documents.length;
    return start;
  }

  get documentCount(): number {
    return this.count;
  }

  row(corpusId: string): StoredDocumentDirectory {
    return {
      corpusId,
      start: DIRECTORY_START,
      idText: this.texts.join(''),
      idEnds: this.ends.slice(0, this.count),
      blockStarts: Uint32Array.from(this.starts),
    };
  }
}

/** A directory read back: finds a document's number and block, building its id lookup on first use. */
export class DocumentDirectory {
  private table: Uint32Array | null = null;

  constructor(private readonly row: StoredDocumentDirectory) {}

  get documentCount(): number {
    return this.row.idEnds.length;
  }

  get blockStarts(): Uint32Array {
    return this.row.blockStarts;
  }

  idAt(n: number): string {
    const { idText, idEnds } = this.row;
    return idText.slice(n === 0 ? 0 : idEnds[n - 1]!, idEnds[n]!);
  }

  /** Number of the document with this id, or −1. */
  find(id: string): number {
    const table = (this.table ??= this.buildTable());
    const mask = table.length - 1;
    for (let slot = hash(id, 0, id.length) & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot]!;
      if (entry === 0) return -1;
      if (this.idEquals(entry - 1, id)) return entry - 1;
    }
  }

  /** Index in `blockStarts` of the block holding document `n`. */
  blockOf(n: number): number {
    const starts = this.row.blockStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= n) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private idEquals(n: number, id: string): boolean {
    const { idText, idEnds } = this.row;
    const from = n === 0 ? 0 : idEnds[n - 1]!;
    if (idEnds[n]! - from !== id.length) return false;
    for (let i = 0; i < id.length; i++) if (idText.charCodeAt(from + i) !== id.charCodeAt(i)) return false;
    return true;
  }

  /** Open addressing over document numbers + 1 (0 is empty), at most half full. */
  private buildTable(): Uint32Array {
    const { idText, idEnds } = this.row;
    let size = 16;
    while (size < idEnds.length * 2) size *= 2;
    const table = new Uint32Array(size);
    const mask = size - 1;
    let from = 0;
    for (let n = 0; n < idEnds.length; n++) {
      const to = idEnds[n]!;
      let slot = hash(idText, from, to) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = n + 1;
      from = to;
    }
    return table;
  }
}

/** FNV-1a over UTF-16 code units of `text[from, to)`. */
function hash(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
