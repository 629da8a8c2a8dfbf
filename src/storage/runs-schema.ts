// Row types of the saved-runs store. A run is stored as two rows in `runs`, so that lists never read rankings.
import type { QueryRanking, RunSummary } from '../core/index.ts';

/** A run's description and metrics (a RunRecord without rankings); listed through the `corpusId` index. */
export interface StoredRunSummary extends RunSummary {
  /** Discriminates the two kinds of rows. */
  row: 'summary';
}

/** A run's rankings, under the key `rankingsKey(runId)`. It has no `corpusId`, so the index does not list it. */
export interface StoredRunRankings {
  id: string;
  row: 'rankings';
  runId: string;
  rankings: QueryRanking[];
}

/** A row of the `runs` object store. */
export type StoredRun = StoredRunSummary | StoredRunRankings;

/** Key of the rankings row of a run (ids of runs never contain a NUL character). */
export function rankingsKey(runId: string): string {
  return `${runId}\u0000rankings`;
}
