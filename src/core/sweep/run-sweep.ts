import { taskYielder, throwIfAborted } from '../abort/index.ts';
import type { CorpusQuery } from '../corpus/index.ts';
import type { GqrRetriever } from '../retrieval/index.ts';
import { collectSweepRuns, type SweepRuns } from './sweep-runs.ts';
import { sweepQuery, type QuerySweepResult, type SweepJob, type SweepPreparedQuery } from './sweep-query.ts';

/** Progress of a sweep: `prepare` counts queries retrieved and embedded, `rerank` queries re-ranked at every point. */
export interface SweepProgress {
  /** The phase. */
  phase: 'prepare' | 'rerank';
  /** Queries done in this phase. */
  done: number;
  /** Queries in the sweep. */
  total: number;
}

/** Something that prepares queries: a {@link GqrRetriever}, or a test double. */
export type SweepPreparer = Pick<GqrRetriever, 'prepare'>;

/** How often a sweep yields to the event loop when it has a signal (an abort arrives as a message in a worker). */
const YIELD_MS = 20;

/**
 * Runs the children and embeds every query once, in order (the expensive part of a sweep).
 * Checks `signal` before every query (yielding first, so that an abort sent to a worker is heard within one query)
 * and stops with its reason.
 */
export async function prepareSweepQueries(
  preparer: SweepPreparer,
  queries: readonly CorpusQuery[],
  topK: number,
  onProgress?: (progress: SweepProgress) => void,
  signal?: AbortSignal,
): Promise<SweepPreparedQuery[]> {
  const prepared: SweepPreparedQuery[] = [];
  const pause = taskYielder(YIELD_MS);
  for (const query of queries) {
    if (signal) await pause();
    signal?.throwIfAborted();
    prepared.push({ queryId: query.id, ...(await preparer.prepare(query.text, topK, signal)) });
    onProgress?.({ phase: 'prepare', done: prepared.length, total: queries.length });
  }
  return prepared;
}

/** Re-ranks prepared queries at every grid point (cheap, CPU-bound); checks `signal` between queries. */
export function sweepPreparedQueries(
  prepared: readonly SweepPreparedQuery[],
  job: SweepJob,
  onQueryDone?: () => void,
  signal?: AbortSignal,
): QuerySweepResult[] {
  return prepared.map((query) => {
    signal?.throwIfAborted();
    const result = sweepQuery(query, job);
    onQueryDone?.();
    return result;
  });
}

/**
 * {@link sweepPreparedQueries} for a worker: the same results, but it yields to the event loop every few ms, so an
 * abort message is heard within one query and `onQueryDone` reaches the page as each query ends.
 */
export async function sweepPreparedQueriesInTasks(
  prepared: readonly SweepPreparedQuery[],
  job: SweepJob,
  onQueryDone?: () => void,
  signal?: AbortSignal,
): Promise<QuerySweepResult[]> {
  const pause = taskYielder(YIELD_MS);
  const results: QuerySweepResult[] = [];
  for (const query of prepared) {
    await pause();
    throwIfAborted(signal);
    results.push(sweepQuery(query, job));
    onQueryDone?.();
  }
  return results;
}

/**
 * A whole sweep in one thread: each query is prepared once (children + embeddings), then re-ranked at every grid
 * point and for every baseline. Hosts with several threads split {@link sweepPreparedQueries} across them instead.
 */
export async function sweepQueries(
  preparer: SweepPreparer,
  queries: readonly CorpusQuery[],
  job: SweepJob,
  onProgress?: (progress: SweepProgress) => void,
  signal?: AbortSignal,
): Promise<SweepRuns> {
  const prepared = await prepareSweepQueries(preparer, queries, job.topK, onProgress, signal);
  let done = 0;
  const results = sweepPreparedQueries(prepared, job, () => onProgress?.({ phase: 'rerank', done: ++done, total: prepared.length }), signal);
  return collectSweepRuns(queries.map((q) => q.id), results, job);
}
