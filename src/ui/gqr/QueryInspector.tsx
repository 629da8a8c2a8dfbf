import { useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CorpusDocument } from '../../core/index.ts';
import type { GqrInspection } from '../../workers/gqr-worker-api.ts';
import { SERIES_COLORS } from './AlphaChart.tsx';
import { poolRows, rankTrajectories } from './inspector-data.ts';

/** Candidates drawn in the rank chart: those in this top at the start or at the end. */
const TRAJECTORY_TOP = 10;

const PATH_NAMES: Record<string, string> = {
  single: 'single-vector cosine (the query embedding was refined)',
  multi: 'multi-vector MaxSim (the query token vectors were refined)',
  'score-space': 'score space (the primary scores themselves were refined)',
};

const CHILD_NAMES: Record<string, string> = {
  both: 'Both children returned their own lists.',
  'complementary-for-primary': 'The primary could not embed the query: the complementary list stands in for it.',
  'primary-for-complementary': 'The complementary retriever could not embed the query: the primary list stands in for it.',
};

/** 1, 5, 10, 15, … up to the deepest rank drawn. */
function rankTicks(max: number): number[] {
  const step = max > 40 ? 10 : 5;
  const ticks = [1];
  for (let t = step; t <= max; t += step) ticks.push(t);
  return ticks;
}

const pct = (p: number) => (p >= 0.0001 ? `${(p * 100).toFixed(2)}%` : p === 0 ? '0' : p.toExponential(1));

/** One query through GQR at one setting: the path and why, the candidate pool's distributions, and the ranks over the steps. */
export function QueryInspector({
  inspection,
  documents,
  heading,
}: {
  inspection: GqrInspection;
  /** Titles of the pool's documents, when known. */
  documents: ReadonlyMap<string, CorpusDocument>;
  heading: string;
}) {
  const { trace } = inspection;
  const rows = useMemo(
    () => poolRows(trace, new Set(inspection.primary.map((d) => d.id)), new Set(inspection.complementary.map((d) => d.id))),
    [trace, inspection.primary, inspection.complementary],
  );
  const trajectories = useMemo(() => rankTrajectories(trace, TRAJECTORY_TOP), [trace]);
  const title = (id: string) => documents.get(id)?.title || id;
  const maxRank = Math.max(1, ...trajectories.rows.flatMap((row) => trajectories.ids.map((id) => row[id] ?? 1)));
  const c = trace.config;
  return (
    <section className="panel gqr-inspector" aria-label="Query inspector">
      <h3>{heading}</h3>
      <dl className="inspector-facts" data-testid="inspector-path">
        <dt>Scoring path</dt>
        <dd>
          <strong>{PATH_NAMES[inspection.path] ?? inspection.path}</strong> — {inspection.pathReason}
        </dd>
        <dt>Children</dt>
        <dd>{CHILD_NAMES[inspection.children]}</dd>
        {inspection.notes.map((note) => (
          <dd key={note} className="notice">
            {note}
          </dd>
        ))}
        <dt>Settings</dt>
        <dd>
          α {c.mixtureAlpha} · τ {c.temperature} · η {c.learningRate} · {c.nSteps} steps · {c.target} target · {c.optimizer} · pool {c.candidatePoolMode} ·
          scorer {trace.scorer} · top {trace.topK} of {rows.length} candidates
        </dd>
        {trace.losses.length > 0 && (
          <>
            <dt>KL(target ‖ p)</dt>
            <dd>
              {trace.losses[0]!.toExponential(3)} at step 0 → {trace.losses[trace.losses.length - 1]!.toExponential(3)} at step {trace.losses.length - 1}
            </dd>
          </>
        )}
      </dl>

      {trajectories.ids.length > 0 && (
        <figure className="rank-chart" aria-label="Candidate ranks over the optimisation steps">
          <ResponsiveContainer width="100%" height={300}>
            <LineChart data={trajectories.rows} margin={{ top: 8, right: 24, bottom: 24, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#ddd" />
              <XAxis dataKey="step" type="number" domain={[0, trace.steps]} label={{ value: 'step', position: 'insideBottom', offset: -12 }} />
              <YAxis reversed domain={[1, maxRank]} ticks={rankTicks(maxRank)} allowDecimals={false} label={{ value: 'rank', angle: -90, position: 'insideLeft' }} />
              <Tooltip isAnimationActive={false} formatter={(value, name) => [`rank ${value}`, title(String(name))]} labelFormatter={(step) => `step ${step}`} />
              {trajectories.ids.map((id, i) => (
                <Line key={id} dataKey={id} name={id} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} dot={false} strokeWidth={1.5} isAnimationActive={false} type="stepAfter" />
              ))}
            </LineChart>
          </ResponsiveContainer>
          <figcaption className="hint">
            Ranks of the candidates in the top {TRAJECTORY_TOP} at the start or at the end, after each step (step 0 = before any update).
          </figcaption>
        </figure>
      )}

      <div className="table-scroll">
        <table className="pool-table" aria-label="Candidate pool">
          <thead>
            <tr>
              <th>final rank</th>
              <th>start rank</th>
              <th>document</th>
              <th title="the primary retriever's raw score (floor when it did not return the document)">primary score</th>
              <th title="the complementary retriever's raw score (floor when it did not return the document)">compl. score</th>
              <th title="softmax of the path's starting scores">p⁽⁰⁾</th>
              <th title="softmax of the complementary scores (fixed)">q</th>
              <th title={c.target === 'fixed' ? 'the fixed target (1−α)·p⁽⁰⁾ + α·q' : 'the last step’s target (1−α)·p + α·q'}>target</th>
              <th title="softmax of the final scores">final</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className={row.finalRank <= trace.topK ? 'in-top' : undefined}>
                <td className="num">{row.finalRank}</td>
                <td className="num">
                  {row.initialRank}
                  {row.initialRank !== row.finalRank && <span className={row.finalRank < row.initialRank ? 'up' : 'down'}>{row.finalRank < row.initialRank ? ' ▲' : ' ▼'}</span>}
                </td>
                <td>
                  {title(row.id)} <span className="meta">{row.id}</span>
                </td>
                <td className="num">{row.inPrimary ? row.primaryScore.toFixed(4) : <span className="meta">floor {row.primaryScore.toFixed(2)}</span>}</td>
                <td className="num">{row.inComplementary ? row.complementaryScore.toFixed(4) : <span className="meta">floor {row.complementaryScore.toFixed(2)}</span>}</td>
                <td className="num">{pct(row.p0)}</td>
                <td className="num">{pct(row.q)}</td>
                <td className="num">{pct(row.target)}</td>
                <td className="num">{pct(row.final)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
