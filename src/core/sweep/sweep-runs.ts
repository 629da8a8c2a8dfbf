import type { RunMap } from '../eval/index.ts';
import type { GqrPath } from '../gqr/index.ts';
import type { GqrChildLists } from '../retrieval/index.ts';
import type { GridPoint } from './grid.ts';
import type { QuerySweepResult, SweepJob } from './sweep-query.ts';
import { idRecord } from '../ids/index.ts';

/** The names of a sweep's baseline runs. */
export type SweepBaselineName = 'primary' | 'complementary' | 'rrf';

/** The runs of a whole sweep: one per grid point, plus the baselines, over the same queries. */
export interface SweepRuns {
  /** Query ids in query-set order. */
  queryIds: string[];
  /** One run per grid point, in grid order. */
  points: SweepPointRun[];
  /** Primary-only, complementary-only and RRF runs. */
  baselines: Record<SweepBaselineName, RunMap>;
  /** One convex-combination run per weight (of the primary). */
  cc: { weight: number; run: RunMap }[];
  /** Queries whose children did not both produce their own list, and what stood in. */
  childFallbacks: Record<string, Exclude<GqrChildLists, 'both'>>;
}

/** The GQR run of one grid point. */
export interface SweepPointRun {
  /** The grid point. */
  point: GridPoint;
  /** Its rankings. */
  run: RunMap;
  /** The path each query took. */
  paths: Record<string, GqrPath>;
}

/** Assembles per-query results (in any order, e.g. from several workers) into runs, in `queryIds` order. */
export function collectSweepRuns(queryIds: readonly string[], results: Iterable<QuerySweepResult>, job: SweepJob): SweepRuns {
  const byQuery = new Map<string, QuerySweepResult>();
  for (const result of results) byQuery.set(result.queryId, result);
  const points: SweepPointRun[] = job.points.map((point) => ({ point, run: new Map(), paths: idRecord() }));
  const baselines: Record<SweepBaselineName, RunMap> = { primary: new Map(), complementary: new Map(), rrf: new Map() };
  const cc = job.ccWeights.map((weight) => ({ weight, run: new Map() as RunMap }));
  const childFallbacks: SweepRuns['childFallbacks'] = idRecord();
  const ids: string[] = [];
  for (const queryId of queryIds) {
    const result = byQuery.get(queryId);
    if (!result) continue;
    ids.push(queryId);
    result.points.forEach(({ results, path }, i) => {
      points[i].run.set(queryId, results);
      points[i].paths[queryId] = path;
    });
    baselines.primary.set(queryId, result.baselines.primary);
    baselines.complementary.set(queryId, result.baselines.complementary);
    baselines.rrf.set(queryId, result.baselines.rrf);
    result.baselines.cc.forEach((ranking, i) => cc[i].run.set(queryId, ranking));
    if (result.children !== 'both') childFallbacks[queryId] = result.children;
  }
  return { queryIds: ids, points, baselines, cc, childFallbacks };
}
