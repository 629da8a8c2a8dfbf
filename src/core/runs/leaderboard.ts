import { parseMeasure } from '../eval/index.ts';
import { formatCsv, type CsvCell } from './csv.ts';
import type { RunSummary } from './run-record.ts';
import { describeRunPipeline } from './run-pipeline.ts';

/** What the leaderboard reads of a saved run. */
export type LeaderboardRun = Pick<RunSummary, 'id' | 'name' | 'corpusId' | 'corpusName' | 'pipeline' | 'createdAt' | 'metrics'>;

/** A column: one corpus. */
export interface LeaderboardColumn {
  corpusId: string;
  corpusName: string;
}

/** One pipeline's value on one corpus. */
export interface LeaderboardCell {
  /** The measure's mean over the corpus's evaluated queries, from the newest run that has it. */
  value: number;
  /** The run the value comes from. */
  runId: string;
  runName: string;
  /** How many runs of this pipeline on this corpus have the measure (the newest is shown). */
  runCount: number;
  /** The highest value of its column (every tied cell is marked). */
  best: boolean;
}

/** One row: the runs made with one pipeline configuration, across corpora. */
export interface LeaderboardRow {
  /** The pipeline's configuration label (`describeRunPipeline`). */
  pipeline: string;
  /** One per column; null where the pipeline has no scored run on that corpus. */
  cells: (LeaderboardCell | null)[];
}

/** Pipelines × corpora on one measure. */
export interface Leaderboard {
  /** Canonical measure name. */
  measure: string;
  columns: LeaderboardColumn[];
  /** Most corpora covered first, then the higher mean over the covered cells, then by label. */
  rows: LeaderboardRow[];
}

/** Two values closer than this tie for the best of a column. */
const BEST_TOLERANCE = 1e-12;

/** The measures the scored runs carry, canonical names in first-seen order. */
export function leaderboardMeasures(runs: readonly LeaderboardRun[]): string[] {
  const seen = new Set<string>();
  for (const run of runs) for (const name of Object.keys(run.metrics?.aggregate ?? {})) seen.add(name);
  return [...seen];
}

/** The corpora with at least one scored run, in `corpora` order (then any others in first-seen order). */
export function leaderboardColumns(runs: readonly LeaderboardRun[], corpora: readonly LeaderboardColumn[] = []): LeaderboardColumn[] {
  const scored = new Map<string, LeaderboardColumn>();
  for (const run of runs) if (run.metrics && !scored.has(run.corpusId)) scored.set(run.corpusId, { corpusId: run.corpusId, corpusName: run.corpusName });
  const known = corpora.filter((c) => scored.has(c.corpusId));
  const knownIds = new Set(known.map((c) => c.corpusId));
  return [...known, ...[...scored.values()].filter((c) => !knownIds.has(c.corpusId))];
}

/**
 * The leaderboard of `measure` (any accepted spelling: `nDCG@10`, `ndcg_cut_10`, `ndcg@10`): one row per
 * pipeline label, one column per corpus with scored runs (names from `corpora` when given, so renames show).
 * A cell holds the newest run of that pipeline on that corpus that has the measure. Throws on an unknown measure.
 */
export function buildLeaderboard(runs: readonly LeaderboardRun[], measure: string, corpora: readonly LeaderboardColumn[] = []): Leaderboard {
  const name = parseMeasure(measure).name;
  const columns = leaderboardColumns(runs, corpora);
  const columnIndex = new Map(columns.map((c, i) => [c.corpusId, i]));
  const byPipeline = new Map<string, (LeaderboardCell | null)[]>();
  const newest = [...runs].sort((a, b) => b.createdAt - a.createdAt);
  for (const run of newest) {
    const value = run.metrics?.aggregate[name];
    const column = columnIndex.get(run.corpusId);
    if (value === undefined || !Number.isFinite(value) || column === undefined) continue;
    const label = describeRunPipeline(run.pipeline);
    let cells = byPipeline.get(label);
    if (!cells) {
      cells = columns.map(() => null);
      byPipeline.set(label, cells);
    }
    const cell = cells[column];
    if (cell) cell.runCount++;
    else cells[column] = { value, runId: run.id, runName: run.name, runCount: 1, best: false };
  }
  const rows = [...byPipeline.entries()].map(([pipeline, cells]) => ({ pipeline, cells }));
  columns.forEach((_, i) => {
    const values = rows.map((r) => r.cells[i]?.value).filter((v): v is number => v !== undefined);
    if (values.length === 0) return;
    const top = Math.max(...values);
    for (const row of rows) {
      const cell = row.cells[i];
      if (cell && top - cell.value < BEST_TOLERANCE) cell.best = true;
    }
  });
  const summary = (row: LeaderboardRow) => {
    const values = row.cells.filter((c) => c !== null).map((c) => c.value);
    return { covered: values.length, mean: values.reduce((s, v) => s + v, 0) / values.length };
  };
  rows.sort((a, b) => {
    const sa = summary(a);
    const sb = summary(b);
    return sb.covered - sa.covered || sb.mean - sa.mean || (a.pipeline < b.pipeline ? -1 : a.pipeline > b.pipeline ? 1 : 0);
  });
  return { measure: name, columns, rows };
}

/**
 * Leaderboards as CSV (RFC 4180): a `measure` and a `pipeline` column, then one column per corpus (the union of
 * the boards' columns), full-precision values, empty where a pipeline has no run.
 */
export function leaderboardCsv(boards: readonly Leaderboard[]): string {
  const columns = unionColumns(boards);
  const rows: CsvCell[][] = [['measure', 'pipeline', ...columns.map((c) => c.corpusName)]];
  for (const board of boards) {
    const index = new Map(board.columns.map((c, i) => [c.corpusId, i]));
    for (const row of board.rows) {
      rows.push([board.measure, row.pipeline, ...columns.map((c) => row.cells[index.get(c.corpusId) ?? -1]?.value ?? null)]);
    }
  }
  return formatCsv(rows);
}

/**
 * Leaderboards as Markdown tables, one per measure: values with 4 decimals, the best of each column in bold,
 * "—" where a pipeline has no run. Pipe characters and line breaks in labels are escaped.
 */
export function leaderboardMarkdown(boards: readonly Leaderboard[]): string {
  return boards
    .map((board) => {
      const head = `| ${escapeMarkdown(board.measure)} | ${board.columns.map((c) => escapeMarkdown(c.corpusName)).join(' | ')} |`;
      const rule = `| --- | ${board.columns.map(() => '---:').join(' | ')} |`;
      const body = board.rows.map(
        (row) => `| ${escapeMarkdown(row.pipeline)} | ${row.cells.map((c) => (c ? (c.best ? `**${formatLeaderboardValue(c.value)}**` : formatLeaderboardValue(c.value)) : '—')).join(' | ')} |`,
      );
      return [`### ${escapeMarkdown(board.measure)}`, '', head, rule, ...body].join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

/** A leaderboard value as shown: 4 decimals, as in the Runs table. */
export function formatLeaderboardValue(value: number): string {
  return value.toFixed(4);
}

function unionColumns(boards: readonly Leaderboard[]): LeaderboardColumn[] {
  const seen = new Map<string, LeaderboardColumn>();
  for (const board of boards) for (const c of board.columns) if (!seen.has(c.corpusId)) seen.set(c.corpusId, c);
  return [...seen.values()];
}

function escapeMarkdown(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/([*_`])/g, '\\$1');
}
