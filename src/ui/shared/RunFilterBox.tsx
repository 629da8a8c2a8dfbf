import { useMemo, useState } from 'react';
import { filterRunGroups, groupRuns, parseRunFilter, type RunFilter, type RunGroup, type RunSummary } from '../../core/index.ts';
import { errorMessage } from './format.ts';

const KINDS: [string, string][] = [
  ['', 'any pipeline'],
  ['bm25', 'BM25'],
  ['dense', 'Dense'],
  ['rrf', 'Hybrid: RRF'],
  ['cc', 'Hybrid: convex combination'],
  ['gqr', 'GQR'],
  ['imported', 'Imported TREC file'],
];

/** The runs grouped by sweep and filtered by what is typed in a {@link RunFilterBox}. */
export function useRunGroups(runs: readonly RunSummary[]) {
  const [text, setText] = useState('');
  const [kind, setKind] = useState('');
  const parsed = useMemo((): { filter: RunFilter | null; problem: string | null } => {
    try {
      const filter = parseRunFilter(text);
      return { filter: kind ? { ...filter, kind } : filter, problem: null };
    } catch (error) {
      return { filter: null, problem: errorMessage(error) };
    }
  }, [text, kind]);
  const all = useMemo(() => groupRuns(runs), [runs]);
  const groups = useMemo(() => (parsed.filter ? filterRunGroups(all, parsed.filter) : all.map((g) => ({ ...g, total: g.runs.length }))), [all, parsed.filter]);
  const shown = useMemo(() => groups.flatMap((g) => g.runs.map((r) => r.id)), [groups]);
  const filtering = text.trim() !== '' || kind !== '';
  return { text, setText, kind, setKind, problem: parsed.problem, groups, shown, filtering };
}

export type RunGroupsState = ReturnType<typeof useRunGroups>;
export type ShownRunGroup = RunGroup & { total: number };

/** The search box and pipeline filter of a run list; the words and `field:value` terms it reads are in its hint. */
export function RunFilterBox({ state, label, total }: { state: RunGroupsState; label: string; total: number }) {
  const count = state.shown.length;
  return (
    <div className="run-filter">
      <div className="row">
        <input
          type="search"
          value={state.text}
          aria-label={`Filter ${label}`}
          placeholder="Filter: words, kind:gqr, corpus:…, after:2026-11-01, before:…, imported"
          onChange={(e) => state.setText(e.target.value)}
        />
        <select aria-label={`Pipeline of ${label}`} value={state.kind} onChange={(e) => state.setKind(e.target.value)}>
          {KINDS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        {state.filtering && !state.problem && (
          <span className="meta" data-testid="run-filter-count">
            {count} of {total} runs
          </span>
        )}
      </div>
      {state.problem && (
        <p className="error" role="alert">
          {state.problem}
        </p>
      )}
    </div>
  );
}
