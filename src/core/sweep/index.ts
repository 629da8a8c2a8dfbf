// Public API of GQR sweeps: grids over GQR settings, run over a query set with child results shared by all points.
export {
  type BestValue, bestValues, evaluateSweep, type SweepEvaluation, type SweepPointScores, type SweepRunScores,
  versusBaseline, type WinTieLoss,
} from './evaluate-sweep.ts';
export {
  describeSettings, expandGrid, type GridAxis, type GridPoint, isNumericSweepKey, MAX_GRID_POINTS, parseGridAxis,
  parseSweepValue, SWEEP_KEYS, SWEEP_MODE_VALUES, SweepGridError, sweepKey, type SweepKey, sweepKeyLabel,
  type SweepValue, validateGrid,
} from './grid.ts';
export {
  prepareSweepQueries, sweepPreparedQueries, sweepPreparedQueriesInTasks, type SweepPreparer, type SweepProgress,
  sweepQueries,
} from './run-sweep.ts';
export {
  DEFAULT_CC_WEIGHTS, type QueryBaselines, type QuerySweepResult, type SweepJob, type SweepPreparedQuery, sweepQuery,
} from './sweep-query.ts';
export { collectSweepRuns, type SweepBaselineName, type SweepPointRun, type SweepRuns } from './sweep-runs.ts';
export { testBestPoint, type BestPointComparison } from './best-point-test.ts';
