import type { CorpusDocument } from '../corpus/index.ts';

/**
 * Documents written once, in load order, and read back by row (their position in that order), e.g. a side file
 * on disk: what lets a host search a corpus larger than memory and still show its hits. Memory per document is a
 * few bytes (where its row starts), never its text.
 */
export interface DocumentSpool {
  /** Documents appended so far; the next append's first document gets this row. */
  readonly count: number;
  /** Appends documents after those appended before. Rows are given in call order, even while a write is pending. */
  append(documents: readonly CorpusDocument[]): Promise<void>;
  /** The documents at these rows, in the order asked (every row below `count`). */
  read(rows: readonly number[]): Promise<CorpusDocument[]>;
  /** Releases it and removes what it wrote; later calls fail. */
  close(): Promise<void>;
}
