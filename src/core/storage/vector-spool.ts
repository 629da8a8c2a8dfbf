/**
 * Float32 vector rows written once, in row order, and read back by row, e.g. a file on disk: what lets a host
 * keep only the compact form (int8 codes and sign bits) in memory and still rescore a few candidates exactly,
 * at sizes whose float32 rows would not fit (8.8M × 384 is 13.5 GB). Memory per row is nothing.
 */
export interface VectorSpool {
  /** Values per row. */
  readonly dimensions: number;
  /** Rows appended so far; the next append's first row gets this row number. */
  readonly count: number;
  /**
   * Appends whole rows (row-major) after those appended before. Rows are numbered in call order, even while a
   * write is pending; `values` is copied, so the caller may reuse it at once.
   */
  append(values: Float32Array): Promise<void>;
  /** The rows asked, in the order asked (every row below `count`); consecutive rows may share one read. */
  read(rows: readonly number[]): Promise<Float32Array[]>;
  /** `count` consecutive rows from `first`, row-major: one sequential read, for passes over every row. */
  readRange(first: number, count: number): Promise<Float32Array>;
  /** Releases it and removes what it wrote; later calls fail. */
  close(): Promise<void>;
}
