import { describe, expect, it } from 'vitest';
import { sampleRun } from '../../test-support/run-store-contract.ts';
import { summarizeRun, type RunSummary } from './run-record.ts';
import { defaultComparison, filterRunGroups, groupRuns, parseRunFilter, runMatches, selectionState, selectRange, setSelected } from './run-list.ts';

const single = (id: string, createdAt: number, extra: Partial<RunSummary> = {}): RunSummary => ({ ...summarizeRun(sampleRun(id, 'c1', id, createdAt)), ...extra });
const sweepRun = (id: string, sweep: string, role: string, index: number, createdAt: number): RunSummary =>
  single(id, createdAt, {
    name: `${sweep} · ${role} ${index}`,
    pipeline: { kind: 'gqr' } as RunSummary['pipeline'],
    config: { sweep: { id: sweep, name: `Sweep ${sweep}`, role, ...(role === 'point' ? { point: { id: `p${index}`, index } } : {}) } },
  });

describe('groupRuns', () => {
  it('puts each sweep’s runs in one group (points in grid order, then baselines), single runs in another, newest group first', () => {
    const runs = [
      single('old', 1_000),
      sweepRun('s1-rrf', 's1', 'rrf', 0, 2_000),
      sweepRun('s1-p1', 's1', 'point', 1, 2_000),
      sweepRun('s1-p0', 's1', 'point', 0, 2_000),
      sweepRun('s1-primary', 's1', 'primary', 0, 2_000),
      single('new', 5_000),
      sweepRun('s2-p0', 's2', 'point', 0, 3_000),
    ];
    const groups = groupRuns(runs);
    expect(groups.map((g) => [g.key, g.kind, g.title, g.runs.map((r) => r.id)])).toEqual([
      ['single', 'single', 'Single runs', ['new', 'old']],
      ['sweep:s2', 'sweep', 'Sweep s2', ['s2-p0']],
      ['sweep:s1', 'sweep', 'Sweep s1', ['s1-p0', 's1-p1', 's1-primary', 's1-rrf']],
    ]);
  });
});

describe('defaultComparison', () => {
  const scored = (run: RunSummary, ndcg: number): RunSummary => ({ ...run, metrics: { aggregate: { 'nDCG@10': ndcg }, perQuery: {}, queryCount: 1 } });
  it('inside a sweep: the primary-only run is the baseline and the best grid point is ticked, not a CC or RRF baseline', () => {
    const runs = [
      sweepRun('s1-cc', 's1', 'cc', 0, 3_000),
      scored(sweepRun('s1-p0', 's1', 'point', 0, 3_000), 0.40),
      scored(sweepRun('s1-p1', 's1', 'point', 1, 3_000), 0.43),
      scored(sweepRun('s1-p2', 's1', 'point', 2, 3_000), 0.41),
      sweepRun('s1-primary', 's1', 'primary', 0, 3_000),
      sweepRun('s1-rrf', 's1', 'rrf', 0, 3_000),
      single('older', 1_000),
    ];
    const choice = defaultComparison(runs, 'nDCG@10')!;
    expect(choice).toMatchObject({ baselineId: 's1-primary', tickedId: 's1-p1' });
    expect(choice.note).toContain('its best grid point on nDCG@10 (“s1 · point 1”), compared with its primary-only run (“s1 · primary 0”)');
    // Without scores the first grid point is ticked.
    expect(defaultComparison(runs.map((r) => ({ ...r, metrics: null })), 'nDCG@10')).toMatchObject({ baselineId: 's1-primary', tickedId: 's1-p0' });
  });
  it('outside a sweep (or a sweep without its primary run): the newest run against the oldest', () => {
    expect(defaultComparison([single('new', 3_000), sweepRun('s1-p0', 's1', 'point', 0, 2_000), single('old', 1_000)], 'nDCG@10')).toMatchObject({ baselineId: 'old', tickedId: 'new' });
    expect(defaultComparison([sweepRun('s1-p0', 's1', 'point', 0, 2_000), single('old', 1_000)], 'nDCG@10')).toMatchObject({ baselineId: 'old', tickedId: 's1-p0' });
    expect(defaultComparison([single('only', 1_000)], 'nDCG@10')).toEqual({ baselineId: 'only', note: '' });
    expect(defaultComparison([], 'nDCG@10')).toBeNull();
  });
});

describe('run filter', () => {
  const day = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();
  const runs = [
    single('bm25', day(2026, 11, 3), { name: 'BM25 tuned' }),
    sweepRun('gqr', 's1', 'point', 0, day(2026, 11, 20)),
    single('trec', day(2026, 12, 1), { name: 'other-system', pipeline: { kind: 'imported', fileName: 'other.run' }, corpusName: 'NPL', imported: { fileName: 'other.run', at: 1 } }),
  ];
  const ids = (text: string) => runs.filter((r) => runMatches(r, parseRunFilter(text))).map((r) => r.id);

  it('matches words in name, pipeline, corpus, sweep name and import file; fields by kind, corpus, date, imported', () => {
    expect(ids('')).toEqual(['bm25', 'gqr', 'trec']);
    expect(ids('tuned')).toEqual(['bm25']);
    expect(ids('BM25 k1=0.9')).toEqual(['bm25']);
    expect(ids('sweep s1')).toEqual(['gqr']);
    expect(ids('other.run')).toEqual(['trec']);
    expect(ids('kind:gqr')).toEqual(['gqr']);
    expect(ids('pipeline:imported')).toEqual(['trec']);
    expect(ids('corpus:npl')).toEqual(['trec']);
    expect(ids('after:2026-11-20')).toEqual(['gqr', 'trec']);
    expect(ids('before:2026-11-20')).toEqual(['bm25', 'gqr']);
    expect(ids('after:2026-11-04 before:2026-11-30')).toEqual(['gqr']);
    expect(ids('imported')).toEqual(['trec']);
    expect(ids('-imported')).toEqual(['bm25', 'gqr']);
  });

  it('names a date it cannot read', () => {
    expect(() => parseRunFilter('after:2026-13-01')).toThrow('after:2026-13-01 is not a date (write YYYY-MM-DD)');
    expect(() => parseRunFilter('before:yesterday')).toThrow('before:yesterday is not a date');
  });

  it('filters within groups, keeping their full size and dropping empty groups', () => {
    const groups = filterRunGroups(groupRuns(runs), parseRunFilter('kind:gqr'));
    expect(groups.map((g) => [g.key, g.runs.length, g.total])).toEqual([['sweep:s1', 1, 1]]);
  });
});

describe('bulk selection', () => {
  const shown = ['a', 'b', 'c', 'd', 'e'];
  it('tells a group checkbox whether all, some or none of its runs are selected', () => {
    expect(selectionState(['a', 'b'], new Set(['a', 'b', 'x']))).toBe('all');
    expect(selectionState(['a', 'b'], new Set(['b']))).toBe('some');
    expect(selectionState(['a', 'b'], new Set())).toBe('none');
    expect([...setSelected(new Set(['a']), ['b', 'c'], true)]).toEqual(['a', 'b', 'c']);
    expect([...setSelected(new Set(['a', 'b']), ['b'], false)]).toEqual(['a']);
  });

  it('shift-click selects (or clears) every run between the last click and this one, either direction', () => {
    expect([...selectRange(shown, 'b', 'd', new Set(['b']), true)].sort()).toEqual(['b', 'c', 'd']);
    expect([...selectRange(shown, 'e', 'c', new Set(['a']), true)].sort()).toEqual(['a', 'c', 'd', 'e']);
    expect([...selectRange(shown, 'b', 'd', new Set(shown), false)].sort()).toEqual(['a', 'e']);
    expect([...selectRange(shown, null, 'c', new Set(), true)]).toEqual(['c']);
    expect([...selectRange(shown, 'gone', 'c', new Set(), true)]).toEqual(['c']);
  });
});
