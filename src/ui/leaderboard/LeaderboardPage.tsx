import { useMemo, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { buildLeaderboard, DEFAULT_MEASURES, formatLeaderboardValue, leaderboardCsv, leaderboardMarkdown, leaderboardMeasures, type Leaderboard, type LeaderboardRun } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { useCorpora } from '../shared/corpora.ts';
import { runsKey } from '../services/query-keys.ts';
import { getRunStore } from '../services/stores.ts';
import { downloadText } from '../shared/download.ts';
import { MeasuresInput } from '../shared/MeasuresInput.tsx';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';
import '../shared/runs.css';
import './leaderboard.css';

/** Pipelines × corpora on chosen measures, from the saved runs of every corpus (what ranx and MTEB tables show). */
export function LeaderboardPage() {
  const corpora = useCorpora();
  const list = useMemo(() => corpora.data ?? [], [corpora.data]);
  // Same keys as each corpus's run list, so a run saved or deleted anywhere refreshes the board.
  const runLists = useQueries({
    queries: list.map((c) => ({ queryKey: runsKey(c.id), queryFn: async () => (await getRunStore()).listRuns(c.id) })),
  });
  const failed = runLists.find((q) => q.isError);
  const loading = runLists.some((q) => q.isPending);
  const runs: LeaderboardRun[] = useMemo(() => runLists.flatMap((q) => q.data ?? []), [runLists]);
  const present = useMemo(() => leaderboardMeasures(runs), [runs]);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [inputKey, setInputKey] = useState(0);
  // nDCG@10 unless no run has it; the input is re-made when this default or a ticked measure changes, not as one types.
  const fallback = present.includes(DEFAULT_MEASURES[0]!) ? DEFAULT_MEASURES[0]! : (present[0] ?? DEFAULT_MEASURES[0]!);
  const measures = chosen ?? [fallback];
  const columnsOrder = useMemo(() => list.map((c) => ({ corpusId: c.id, corpusName: c.name })), [list]);
  const boards = useMemo(() => measures.map((m) => buildLeaderboard(runs, m, columnsOrder)), [runs, measures, columnsOrder]);

  if (corpora.data && corpora.data.length === 0) return <NoCorpusYet action="rank pipelines on" />;

  const toggle = (measure: string, on: boolean) => {
    const next = on ? [...measures, measure] : measures.filter((m) => m !== measure);
    setChosen(next.length > 0 ? next : measures);
    setInputKey((k) => k + 1);
  };

  return (
    <>
      <section className="panel" aria-label="Leaderboard settings">
        <h2>Leaderboard</h2>
        <p className="hint">
          Rows are pipelines by their configuration label, columns are corpora; a cell is the measure's mean over the corpus's judged queries in the
          newest saved run of that pipeline on that corpus. ★ marks the best of each column; “—” means no scored run.
        </p>
        {present.length > 0 && (
          <fieldset className="row wrap leaderboard-measures">
            <legend>Measures in the runs</legend>
            {present.map((m) => (
              <label key={m}>
                <input type="checkbox" checked={measures.includes(m)} onChange={(e) => toggle(m, e.target.checked)} /> {m}
              </label>
            ))}
          </fieldset>
        )}
        <div className="row">
          <MeasuresInput key={`${inputKey}:${fallback}`} value={measures} onChange={setChosen} label="Leaderboard measures" />
        </div>
        {failed && <p className="error">Could not list the runs: {errorMessage(failed.error)}</p>}
        {!loading && runs.length === 0 && <p className="hint">No saved runs yet: make runs on the Runs page or the GQR lab.</p>}
        {boards.some((b) => b.rows.length > 0) && (
          <div className="row">
            <button type="button" onClick={() => downloadText('leaderboard.csv', leaderboardCsv(boards), 'text/csv')}>
              Download CSV
            </button>
            <button type="button" onClick={() => downloadText('leaderboard.md', leaderboardMarkdown(boards), 'text/markdown')}>
              Download Markdown
            </button>
          </div>
        )}
      </section>
      {runs.length > 0 && boards.map((board) => <LeaderboardTable key={board.measure} board={board} />)}
    </>
  );
}

function LeaderboardTable({ board }: { board: Leaderboard }) {
  return (
    <section className="panel" aria-label={`Leaderboard ${board.measure}`}>
      <h2>{board.measure}</h2>
      {board.rows.length === 0 ? (
        <p className="hint">No saved run has {board.measure}: score it by making or importing runs with it among their measures.</p>
      ) : (
        <div className="table-scroll">
          <table className="compact leaderboard-table" aria-label={`Leaderboard table ${board.measure}`}>
            <thead>
              <tr>
                <th>Pipeline</th>
                {board.columns.map((c) => (
                  <th key={c.corpusId} className="num">
                    {c.corpusName}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {board.rows.map((row) => (
                <tr key={row.pipeline} data-testid="leaderboard-row">
                  <th scope="row" className="pipeline">
                    {row.pipeline}
                  </th>
                  {row.cells.map((cell, i) => {
                    const column = board.columns[i]!;
                    if (!cell)
                      return (
                        <td key={column.corpusId} className="num missing" data-corpus={column.corpusName}>
                          —
                        </td>
                      );
                    return (
                      <td
                        key={column.corpusId}
                        className={cell.best ? 'num best' : 'num'}
                        data-corpus={column.corpusName}
                        title={`“${cell.runName}”${cell.runCount > 1 ? ` (the newest of ${cell.runCount} runs)` : ''}`}
                      >
                        <span className="value">{formatLeaderboardValue(cell.value)}</span>
                        {cell.best && (
                          <span className="mark" aria-label="best on this corpus">
                            {' '}
                            ★
                          </span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
