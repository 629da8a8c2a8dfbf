/** One query of a turn's block and what happens to it. */
export type ScheduledQuery =
  | { query: string; kind: 'run' }
  /** Already searched in `firstTurn` (H5): answered from the log, costs no search call. */
  | { query: string; kind: 'repeat'; firstTurn: number };

/** What a turn does with the queries of its block. */
export interface QuerySchedule {
  /** The block's queries that run or are answered as repeats, in the block's order (the results block's lines). */
  entries: ScheduledQuery[];
  /** Queries to retrieve now, in order. */
  executed: string[];
  /** Queries searched in an earlier turn (H5). */
  repeated: Array<{ query: string; firstTurn: number }>;
  /** New queries beyond `maxParallelQueries`. */
  cutByCap: string[];
  /** New queries beyond the remaining search calls. */
  cutByBudget: string[];
}

/**
 * Decides the fate of each query of a block (H5 and the parallel cap): a query searched in an earlier turn is a repeat
 * (no retrieval, no search call, and — extension `repeats-outside-parallel-cap` — no place under `maxParallelQueries`,
 * so new queries written after restated ones are not lost); of the new ones the first `maxParallelQueries` may run,
 * and of those only as many as `remaining` search calls allow.
 */
export function scheduleQueries(
  queries: readonly string[],
  firstTurnOf: ReadonlyMap<string, number>,
  maxParallelQueries: number,
  remaining: number,
): QuerySchedule {
  const schedule: QuerySchedule = { entries: [], executed: [], repeated: [], cutByCap: [], cutByBudget: [] };
  let fresh = 0;
  for (const query of queries) {
    const firstTurn = firstTurnOf.get(query);
    if (firstTurn !== undefined) {
      schedule.repeated.push({ query, firstTurn });
      schedule.entries.push({ query, kind: 'repeat', firstTurn });
    } else if (fresh++ >= maxParallelQueries) {
      schedule.cutByCap.push(query);
    } else if (schedule.executed.length < remaining) {
      schedule.executed.push(query);
      schedule.entries.push({ query, kind: 'run' });
    } else {
      schedule.cutByBudget.push(query);
    }
  }
  return schedule;
}
