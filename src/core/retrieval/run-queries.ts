import type { CorpusQuery } from '../corpus/index.ts';
import type { Retriever } from './retriever.ts';
import type { RunMap } from '../eval/index.ts';

/** Runs every query through a retriever, in order; reports progress and stops when `signal` aborts. */
export async function runQueries(
  retriever: Retriever,
  queries: readonly CorpusQuery[],
  k: number,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<RunMap> {
  if (retriever.searchMany) return retriever.searchMany(queries, k, onProgress, signal);
  const rankings: RunMap = new Map();
  for (let i = 0; i < queries.length; i++) {
    signal?.throwIfAborted();
    const query = queries[i]!;
    rankings.set(query.id, await retriever.search(query.text, k, signal));
    onProgress?.(i + 1, queries.length);
  }
  return rankings;
}
