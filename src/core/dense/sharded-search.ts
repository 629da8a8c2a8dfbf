import type { QueryEmbedding } from '../embedding/index.ts';
import { mergeTopK, type DenseHit } from './top-k.ts';

/** Exact top-k over rows [start, end) of one matrix, e.g. `searchDense` running in a worker. */
export type RowRangeSearch = (query: QueryEmbedding, k: number, start: number, end: number) => Promise<DenseHit[]>;

/** Splits rows [0, size) into `parts` contiguous ranges of nearly equal length (the first ones one row longer). */
export function splitRows(size: number, parts: number): Array<[number, number]> {
  if (!Number.isInteger(parts) || parts <= 0) throw new Error(`parts must be a positive integer, got ${parts}`);
  const ranges: Array<[number, number]> = [];
  const base = Math.floor(size / parts);
  let start = 0;
  for (let i = 0; i < parts; i++) {
    const end = start + base + (i < size % parts ? 1 : 0);
    ranges.push([start, end]);
    start = end;
  }
  return ranges;
}

/**
 * Exact top-k split over several scanners (one row range each, run concurrently) and merged: the same hits, in
 * the same order, as one full scan.
 */
export async function searchDenseSharded(size: number, query: QueryEmbedding, k: number, shards: readonly RowRangeSearch[]): Promise<DenseHit[]> {
  const ranges = splitRows(size, shards.length);
  const lists = await Promise.all(shards.map((search, i) => search(query, k, ranges[i]![0], ranges[i]![1])));
  return mergeTopK(lists, k);
}
