import { useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { describeGqrPool, type CorpusDocument } from '../../core/index.ts';
import type { GqrInspection } from '../../workers/gqr-worker-api.ts';
import { ChartLegend } from './ChartExport.tsx';
import { SERIES_COLORS, SERIES_DASHES } from './series-overlap.ts';
import { poolRows, qrelsMark, rankTrajectories, trajectoryLabel } from './inspector-data.ts';
import './gqr-inspector.css';

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

const shortId = (id: string) => (id.length > 14 ? `${id.slice(0, 13)}…` : id);
const relevanceClass = (rel: number | undefined) => (rel === undefined ? '' : rel > 0 ? 'relevant' : 'not-relevant');

const pct = (p: number) => (p >= 0.0001 ? `${(p * 100).toFixed(2)}%` : p === 0 ? '0' : p.toExponential(1));

/** One query through GQR at one setting: the path and why, the candidate pool's distributions, and the ranks over the steps. */
export function QueryInspector({
  inspection,
  documents,
  judgements,
  heading,
}: {
  inspection: GqrInspection;
  /** Titles of the pool's documents, when known. */
  documents: ReadonlyMap<string, CorpusDocument>;
  /** The query's qrels (document id → relevance); undefined for a text that is not a corpus query. */
  judgements?: ReadonlyMap<string, number>;
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
  const lastStep = trajectories.rows.length - 1;
  const lineStyle = (i: number) => ({ color: SERIES_COLORS[i % SERIES_COLORS.length]!, dash: SERIES_DASHES[Math.floor(i / SERIES_COLORS.length) % SERIES_DASHES.length] });
  const trajectoryLegend = trajectories.ids.map((id, i) => ({
    label: trajectoryLabel(id, title(id), trajectories.rows[0]?.[id], trajectories.rows[lastStep]?.[id], judgements),
    ...lineStyle(i),
  }));
  const relevantInPool = judgements ? rows.filter((r) => (judgements.get(r.id) ?? 0) > 0).length : 0;
  const relevantInTop = judgements ? rows.filter((r) => r.finalRank <= trace.topK && (judgements.get(r.id) ?? 0) > 0).length : 0;
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
        <dt>Candidate pool</dt>
        <dd data-testid="inspector-pool">{describeGqrPool(trace.topK, c)}</dd>
        <dt>Qrels</dt>
        <dd data-testid="inspector-qrels">
          {judgements
            ? `${[...judgements.values()].filter((r) => r > 0).length} relevant document(s) judged; ${relevantInPool} in the pool, ${relevantInTop} in the final top ${trace.topK}.`
            : 'None: this text is not a query of the corpus.'}
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
            <LineChart data={trajectories.rows} margin={{ top: 8, right: 96, bottom: 24, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#ddd" />
              <XAxis dataKey="step" type="number" domain={[0, trace.steps]} label={{ value: 'step', position: 'insideBottom', offset: -12 }} />
              <YAxis reversed domain={[1, maxRank]} ticks={rankTicks(maxRank)} allowDecimals={false} label={{ value: 'rank', angle: -90, position: 'insideLeft' }} />
              <Tooltip isAnimationActive={false} formatter={(value, name) => [`rank ${value}`, title(String(name))]} labelFormatter={(step) => `step ${step}`} />
              {trajectories.ids.map((id, i) => (
                <Line
                  key={id}
                  dataKey={id}
                  name={id}
                  stroke={lineStyle(i).color}
                  strokeDasharray={lineStyle(i).dash}
                  dot={false}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                  type="stepAfter"
                  label={(props: { index?: number; x?: number | string; y?: number | string }) =>
                    props.index === lastStep ? (
                      <text key={id} x={Number(props.x) + 6} y={Number(props.y) + 4} fontSize={11} fill={lineStyle(i).color} className="trajectory-label">
                        {shortId(id)}
                        {qrelsMark(judgements?.get(id), judgements !== undefined)}
                      </text>
                    ) : (
                      <g key={`${id}-${props.index}`} />
                    )
                  }
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
          <figcaption>
            <ChartLegend items={trajectoryLegend} label="Trajectory lines" />
            <p className="hint">
              Ranks of the candidates in the top {TRAJECTORY_TOP} at the start or at the end, after each step (step 0 = before any update); each line is
              labelled at its end with the document id{judgements ? ', ✓ judged relevant, ✗ judged not relevant' : ''}.
            </p>
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
              <th title="relevance in the qrels (— unjudged)">qrels</th>
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
              <tr key={row.id} className={[row.finalRank <= trace.topK ? 'in-top' : '', relevanceClass(judgements?.get(row.id))].filter(Boolean).join(' ') || undefined} data-relevance={judgements?.get(row.id) ?? ''}>
                <td className="num">{row.finalRank}</td>
                <td className="num">
                  {row.initialRank}
                  {row.initialRank !== row.finalRank && <span className={row.finalRank < row.initialRank ? 'up' : 'down'}>{row.finalRank < row.initialRank ? ' ▲' : ' ▼'}</span>}
                </td>
                <td>
                  {title(row.id)} <span className="meta">{row.id}</span>
                </td>
                <td className={`qrels ${relevanceClass(judgements?.get(row.id)) || 'unjudged'}`} data-testid="pool-qrels">
                  {judgements?.has(row.id) ? `${qrelsMark(judgements.get(row.id), true).trim()} rel ${judgements.get(row.id)}` : '—'}
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
