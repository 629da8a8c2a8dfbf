// How a list of saved runs is shown: grouped by sweep, filtered by a typed query, selected in bulk. Pure, so the
// Runs and Compare pages group and filter the same way.
import { sweepTagOf } from './saved-sweep.ts';
import { describeRunPipeline } from './run-pipeline.ts';
import type { RunSummary } from './run-record.ts';

/** A group of runs: the runs of one sweep, or every run made on its own. */
export interface RunGroup {
  /** `sweep:<sweep id>` or `single`. */
  key: string;
  kind: 'sweep' | 'single';
  /** The sweep's name, or "Single runs". */
  title: string;
  /** Newest first (a sweep's grid points in grid order, then its baselines). */
  runs: RunSummary[];
  /** Newest run's time: groups are ordered by it. */
  createdAt: number;
}

/** The key of the group a run belongs to. */
export function runGroupKey(run: Pick<RunSummary, 'config'>): string {
  const tag = sweepTagOf(run);
  return tag ? `sweep:${tag.id}` : 'single';
}

/**
 * The runs grouped by sweep (a sweep's grid points in grid order, then its baselines), newest group first; runs
 * that belong to no sweep form one group, "Single runs", newest first.
 */
export function groupRuns(runs: readonly RunSummary[]): RunGroup[] {
  const groups = new Map<string, RunGroup>();
  for (const run of runs) {
    const tag = sweepTagOf(run);
    const key = runGroupKey(run);
    let group = groups.get(key);
    if (!group) {
      group = { key, kind: tag ? 'sweep' : 'single', title: tag ? tag.name : 'Single runs', runs: [], createdAt: run.createdAt };
      groups.set(key, group);
    }
    group.runs.push(run);
    group.createdAt = Math.max(group.createdAt, run.createdAt);
  }
  for (const group of groups.values()) {
    if (group.kind === 'sweep') group.runs.sort(bySweepOrder);
    else group.runs.sort((a, b) => b.createdAt - a.createdAt);
  }
  return [...groups.values()].sort((a, b) => b.createdAt - a.createdAt);
}

const ROLE_ORDER = ['point', 'primary', 'complementary', 'rrf', 'cc'];

/** What Compare ticks and uses as the baseline before the person chooses, and the words that say so. */
export interface DefaultComparison {
  baselineId: string;
  /** The one run ticked at first (absent when there is no other run). */
  tickedId?: string;
  note: string;
}

/**
 * Compare's first choice. When the newest run belongs to a sweep with a primary-only run: that run is the baseline
 * and the sweep's best grid point on `measure` (else its newest) is ticked — GQR against what it refines. Otherwise
 * the newest run is ticked against the oldest. `runs` newest first.
 */
export function defaultComparison(runs: readonly RunSummary[], measure: string): DefaultComparison | null {
  if (runs.length === 0) return null;
  const newest = runs.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
  const tag = sweepTagOf(newest);
  if (tag) {
    const sweep = runs.filter((r) => sweepTagOf(r)?.id === tag.id);
    const primary = sweep.find((r) => sweepTagOf(r)!.role === 'primary');
    const points = sweep.filter((r) => sweepTagOf(r)!.role === 'point');
    const scored = points.filter((r) => typeof r.metrics?.aggregate[measure] === 'number');
    if (primary && points.length > 0) {
      const best = scored.length > 0 ? scored.reduce((a, b) => (b.metrics!.aggregate[measure]! > a.metrics!.aggregate[measure]! ? b : a)) : points[0]!;
      const which = scored.length > 0 ? `its best grid point on ${measure}` : 'its first grid point';
      return {
        baselineId: primary.id,
        tickedId: best.id,
        note: `Ticked at first: in the newest sweep “${tag.name}”, ${which} (“${best.name}”), compared with its primary-only run (“${primary.name}”) as the baseline.`,
      };
    }
  }
  const oldest = runs.reduce((a, b) => (b.createdAt < a.createdAt ? b : a));
  const other = runs.filter((r) => r.id !== oldest.id).reduce<RunSummary | undefined>((a, b) => (!a || b.createdAt > a.createdAt ? b : a), undefined);
  return other
    ? { baselineId: oldest.id, tickedId: other.id, note: `Ticked at first: only the newest run (“${other.name}”), compared with the oldest (“${oldest.name}”) as the baseline.` }
    : { baselineId: oldest.id, note: '' };
}

function bySweepOrder(a: RunSummary, b: RunSummary): number {
  const ta = sweepTagOf(a)!;
  const tb = sweepTagOf(b)!;
  const role = ROLE_ORDER.indexOf(ta.role) - ROLE_ORDER.indexOf(tb.role);
  if (role !== 0) return role;
  return (ta.point?.index ?? 0) - (tb.point?.index ?? 0);
}

/** A parsed run filter: `kind:gqr corpus:meridian after:2026-11-01 before:2026-12-01 imported words…`. */
export interface RunFilter {
  /** Words every run must contain (name, pipeline, corpus, sweep, notes, import file), lower case. */
  words: string[];
  /** Pipeline kind (`bm25`, `dense`, `rrf`, `cc`, `gqr`, `imported`), or null for any. */
  kind: string | null;
  /** Part of the corpus name the run was made on, lower case. */
  corpus: string | null;
  /** Made on or after this day (ms, local midnight). */
  after: number | null;
  /** Made before the end of this day (ms, local midnight of the next day). */
  before: number | null;
  /** Only imported (true) or only made here (false) runs. */
  imported: boolean | null;
}

/** A filter's problem in words, e.g. `after:2026-13-01 is not a date (write YYYY-MM-DD)`. */
export class RunFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunFilterError';
  }
}

/** Parses the text typed in a run filter box; throws a RunFilterError naming the term at fault. */
export function parseRunFilter(text: string): RunFilter {
  const filter: RunFilter = { words: [], kind: null, corpus: null, after: null, before: null, imported: null };
  for (const term of text.trim().split(/\s+/).filter(Boolean)) {
    const colon = term.indexOf(':');
    const field = colon > 0 ? term.slice(0, colon).toLowerCase() : '';
    const value = colon > 0 ? term.slice(colon + 1) : '';
    if (field === 'kind' || field === 'pipeline') filter.kind = value.toLowerCase() || null;
    else if (field === 'corpus') filter.corpus = value.toLowerCase() || null;
    else if (field === 'after' || field === 'since') filter.after = parseDay(term, value);
    else if (field === 'before' || field === 'until') filter.before = parseDay(term, value) + DAY_MS;
    else if (term.toLowerCase() === 'imported') filter.imported = true;
    else if (term.toLowerCase() === '-imported') filter.imported = false;
    else filter.words.push(term.toLowerCase());
  }
  return filter;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function parseDay(term: string, value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
  if (!date || date.getMonth() !== Number(match![2]) - 1 || date.getDate() !== Number(match![3])) {
    throw new RunFilterError(`${term} is not a date (write YYYY-MM-DD)`);
  }
  return date.getTime();
}

/** The pipeline kind a run is filtered by: its spec's kind, or `imported` for a TREC file. */
export function runKind(run: Pick<RunSummary, 'pipeline'>): string {
  return String(run.pipeline.kind);
}

/** True when the run passes the filter. */
export function runMatches(run: RunSummary, filter: RunFilter): boolean {
  if (filter.kind !== null && runKind(run) !== filter.kind) return false;
  if (filter.corpus !== null && !run.corpusName.toLowerCase().includes(filter.corpus)) return false;
  if (filter.after !== null && run.createdAt < filter.after) return false;
  if (filter.before !== null && run.createdAt >= filter.before) return false;
  if (filter.imported !== null && (run.imported !== undefined) !== filter.imported) return false;
  if (filter.words.length === 0) return true;
  const haystack = [run.name, describeRunPipeline(run.pipeline), run.corpusName, sweepTagOf(run)?.name ?? '', run.notes, run.imported?.fileName ?? '']
    .join('\n')
    .toLowerCase();
  return filter.words.every((w) => haystack.includes(w));
}

/** The groups with only the runs that pass the filter (empty groups left out); `total` keeps each group's full size. */
export function filterRunGroups(groups: readonly RunGroup[], filter: RunFilter): (RunGroup & { total: number })[] {
  return groups
    .map((g) => ({ ...g, runs: g.runs.filter((r) => runMatches(r, filter)), total: g.runs.length }))
    .filter((g) => g.runs.length > 0);
}

/** How many of `ids` are selected: all, some or none (a group checkbox is checked, mixed or clear). */
export function selectionState(ids: readonly string[], selected: ReadonlySet<string>): 'all' | 'some' | 'none' {
  const count = ids.filter((id) => selected.has(id)).length;
  return count === 0 ? 'none' : count === ids.length ? 'all' : 'some';
}

/** `selected` with every id of `ids` added (`checked`) or removed. */
export function setSelected(selected: ReadonlySet<string>, ids: readonly string[], checked: boolean): Set<string> {
  const next = new Set(selected);
  for (const id of ids) {
    if (checked) next.add(id);
    else next.delete(id);
  }
  return next;
}

/**
 * Shift-click: every id between the last clicked one (`anchor`) and `target`, inclusive, in the order shown, set to
 * `checked`. Without an anchor shown, only `target`.
 */
export function selectRange(shown: readonly string[], anchor: string | null, target: string, selected: ReadonlySet<string>, checked: boolean): Set<string> {
  const to = shown.indexOf(target);
  const from = anchor === null ? -1 : shown.indexOf(anchor);
  if (to < 0) return new Set(selected);
  if (from < 0) return setSelected(selected, [target], checked);
  const [lo, hi] = from <= to ? [from, to] : [to, from];
  return setSelected(selected, shown.slice(lo, hi + 1), checked);
}
