// The door of runs: saved runs, their environment, exports, imports, comparisons, lists and recipes.
export {
  comparisonCsv, type PerQueryComparisonRow, perQueryCsv, SIGNIFICANCE_LEVELS, significanceMark,
} from './comparison-csv.ts';
export { type CsvCell, formatCsv } from './csv.ts';
export { describeImportMark, prepareRunImport, type RunAlreadyHere } from './import-runs.ts';
export { findUnknownDocuments, importTrecRun, type UnknownDocuments } from './import-trec-run.ts';
export { MemoryRunStore } from './memory-run-store.ts';
export {
  corpusDifferences, formatRecipe, makeRecipe, modelDifferences, parseRecipe, type Recipe, recipeCorpus,
  type RecipeCorpus, RecipeError, type RecipeExperiment, recipeModels, recipeOfRun,
} from './recipe.ts';
export { compareRunRankings, type RunComparison } from './run-comparison.ts';
export {
  describeRunHost, type HostEnvironment, runEnvironment, type RunEnvironment, type RunEnvironmentSource, sha256Hex,
  storedModelFiles,
} from './run-environment.ts';
export { exportRunJson, exportRunsJson, parseRunJson, parseRunsJson } from './run-json.ts';
export {
  defaultComparison, filterRunGroups, groupRuns, parseRunFilter, type RunFilter, type RunGroup, selectionState,
  selectRange, setSelected,
} from './run-list.ts';
export { describeRunPipeline, modelsOfPipeline } from './run-pipeline.ts';
export {
  buildRunRecord, checkRunName, type QueryRanking, rescoreRunRecord, runMapOfRecord, type RunRecord, type RunSummary,
  summarizeRun,
} from './run-record.ts';
export { type RunStore } from './run-store.ts';
export { exportRunTrec } from './run-trec.ts';
export {
  labSweepsFromRuns, newSweepId, type SavedSweep, type SweepEnvironment, sweepRunRecords,
} from './saved-sweep.ts';
export { sweepRecipeExperiment, sweepRequestOfRecipe } from './sweep-recipe.ts';
export { WORKBENCH_VERSION } from './workbench-version.ts';
export { buildLeaderboard, leaderboardCsv, leaderboardMarkdown, leaderboardMeasures, formatLeaderboardValue, type Leaderboard, type LeaderboardRun } from './leaderboard.ts';
