import { describe, expect, it } from 'vitest';
import { defaultSpec } from '../retrieval/index.ts';
import { buildLeaderboard, leaderboardColumns, leaderboardCsv, leaderboardMarkdown, leaderboardMeasures, type LeaderboardRun } from './leaderboard.ts';
import type { RunPipeline } from './run-pipeline.ts';

const bm25 = defaultSpec('bm25');
const tuned: RunPipeline = { kind: 'bm25', params: { ...bm25.params, k1: 1.2, b: 0.75 } };
const imported: RunPipeline = { kind: 'imported', fileName: 'other|system.run' };

let clock = 0;
function run(id: string, corpusId: string, pipeline: RunPipeline, aggregate: Record<string, number> | null): LeaderboardRun {
  return {
    id,
    name: `run ${id}`,
    corpusId,
    corpusName: corpusId === 'c1' ? 'Meridian' : 'Mills',
    pipeline,
    createdAt: ++clock,
    metrics: aggregate ? { aggregate, perQuery: {}, queryCount: 3 } : null,
  };
}

const runs: LeaderboardRun[] = [
  run('a', 'c1', bm25, { 'nDCG@10': 0.7, 'R@100': 0.9 }),
  run('b', 'c1', bm25, { 'nDCG@10': 0.75, 'R@100': 0.91 }), // newer run of the same pipeline: shown
  run('c', 'c2', bm25, { 'nDCG@10': 0.5 }),
  run('d', 'c1', tuned, { 'nDCG@10': 0.75, AP: 0.4 }), // ties the best on c1
  run('e', 'c2', imported, { 'nDCG@10': 0.6 }),
  run('f', 'c3', bm25, null), // unscored: no column
];

describe('buildLeaderboard', () => {
  it('puts pipelines in rows, corpora in columns, the newest run in each cell and marks the best per column', () => {
    const board = buildLeaderboard(runs, 'ndcg_cut_10', [
      { corpusId: 'c2', corpusName: 'Mills (renamed)' },
      { corpusId: 'c1', corpusName: 'Meridian' },
      { corpusId: 'c3', corpusName: 'Unscored' },
    ]);
    expect(board.measure).toBe('nDCG@10');
    expect(board.columns.map((c) => c.corpusName)).toEqual(['Mills (renamed)', 'Meridian']);
    const table = board.rows.map((r) => [r.pipeline, ...r.cells.map((c) => (c ? `${c.value}${c.best ? '*' : ''} ${c.runId}×${c.runCount}` : '—'))]);
    expect(table).toEqual([
      ['BM25 k1=0.9 b=0.4', '0.5 c×1', '0.75* b×2'],
      ['BM25 k1=1.2 b=0.75', '—', '0.75* d×1'],
      ['Imported: other|system.run', '0.6* e×1', '—'],
    ]);
  });

  it('leaves cells empty where the measure is missing, and refuses an unknown measure by name', () => {
    const board = buildLeaderboard(runs, 'map');
    expect(board.columns.map((c) => c.corpusId)).toEqual(['c1', 'c2']);
    expect(board.rows).toEqual([{ pipeline: 'BM25 k1=1.2 b=0.75', cells: [{ value: 0.4, runId: 'd', runName: 'run d', runCount: 1, best: true }, null] }]);
    expect(() => buildLeaderboard(runs, 'ndgc@10')).toThrow("unknown measure 'ndgc@10'");
  });

  it('lists the measures and the scored corpora of the runs', () => {
    expect(leaderboardMeasures(runs)).toEqual(['nDCG@10', 'R@100', 'AP']);
    expect(leaderboardColumns(runs).map((c) => c.corpusId)).toEqual(['c1', 'c2']);
    expect(buildLeaderboard([], 'nDCG@10')).toEqual({ measure: 'nDCG@10', columns: [], rows: [] });
  });
});

describe('leaderboard exports', () => {
  const boards = [buildLeaderboard(runs, 'nDCG@10'), buildLeaderboard(runs, 'R@100')];

  it('CSV: measure, pipeline, one column per corpus, full precision, empty where missing', () => {
    expect(leaderboardCsv(boards).split('\r\n')).toEqual([
      'measure,pipeline,Meridian,Mills',
      'nDCG@10,BM25 k1=0.9 b=0.4,0.75,0.5',
      'nDCG@10,BM25 k1=1.2 b=0.75,0.75,',
      'nDCG@10,Imported: other|system.run,,0.6',
      'R@100,BM25 k1=0.9 b=0.4,0.91,',
      '',
    ]);
  });

  it('Markdown: one table per measure, the best in bold, "—" where missing, pipes escaped', () => {
    expect(leaderboardMarkdown(boards)).toBe(
      [
        '### nDCG@10',
        '',
        '| nDCG@10 | Meridian | Mills |',
        '| --- | ---: | ---: |',
        '| BM25 k1=0.9 b=0.4 | **0.7500** | 0.5000 |',
        '| BM25 k1=1.2 b=0.75 | **0.7500** | — |',
        '| Imported: other\\|system.run | — | **0.6000** |',
        '',
        '### R@100',
        '',
        '| R@100 | Meridian | Mills |',
        '| --- | ---: | ---: |',
        '| BM25 k1=0.9 b=0.4 | **0.9100** | — |',
        '',
      ].join('\n'),
    );
  });
});
