// Public API of GQR sweeps: grids over GQR settings, run over a query set with child results shared by all points.
export {
  SWEEP_KEYS,
  SWEEP_MODE_VALUES,
  MAX_GRID_POINTS,
  SweepGridError,
  sweepKey,
  sweepKeyLabel,
  isNumericSweepKey,
  parseGridAxis,
  parseSweepValue,
  validateGrid,
  expandGrid,
  describeSettings,
  type SweepKey,
  type SweepValue,
  type GridAxis,
  type GridPoint,
} from './grid.ts';
export { DEFAULT_CC_WEIGHTS, sweepQuery, type SweepJob, type SweepPreparedQuery, type QueryBaselines, type QuerySweepResult } from './sweep-query.ts';
export { collectSweepRuns, type SweepRuns, type SweepPointRun, type SweepBaselineName } from './sweep-runs.ts';
export { evaluateSweep, versusBaseline, bestValues, type SweepEvaluation, type SweepRunScores, type SweepPointScores, type WinTieLoss, type BestValue } from './evaluate-sweep.ts';
export { sweepQueries, prepareSweepQueries, sweepPreparedQueries, sweepPreparedQueriesInTasks, type SweepProgress, type SweepPreparer } from './run-sweep.ts';
