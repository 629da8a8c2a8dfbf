import type { TimelineTurn } from './timeline-model.ts';

/** The turn's LLM call and its retrievals on one time axis: parallel retrievals appear side by side. */
export function TimingBars({ turn }: { turn: TimelineTurn }) {
  const start = turn.startMs;
  const ends = [turn.llm?.endMs ?? start, ...turn.retrievals.map((r) => ('endMs' in r ? r.endMs : r.startMs))];
  const end = Math.max(...ends);
  const span = Math.max(end - start, 1);
  const bar = (from: number, to: number | undefined) => ({
    left: `${((from - start) / span) * 100}%`,
    width: to === undefined ? '2px' : `${Math.max(((to - from) / span) * 100, 0.5)}%`,
  });
  const rows: Array<{ key: string; label: string; from: number; to?: number; kind: string; title: string }> = [];
  if (turn.llm) {
    rows.push({ key: 'llm', label: 'LLM', from: turn.llm.startMs, to: turn.llm.endMs, kind: 'llm', title: `LLM call ${ms(turn.llm.endMs - turn.llm.startMs)}` });
  } else {
    rows.push({ key: 'llm', label: 'LLM', from: turn.startMs, kind: 'llm running', title: 'LLM call running' });
  }
  for (const r of turn.retrievals) {
    if (!r) continue;
    const done = 'endMs' in r;
    rows.push({
      key: `r${r.index}`,
      label: r.query,
      from: r.startMs,
      to: done ? r.endMs : undefined,
      kind: done ? `retrieval ${r.status}` : 'retrieval running',
      title: done ? `${r.query}: ${ms(r.endMs - r.startMs)} (${r.status})` : `${r.query}: running`,
    });
  }
  return (
    <div className="timing" aria-label={`Timings of turn ${turn.turn}`}>
      {rows.map((row) => (
        <div className="timing-row" key={row.key} title={row.title}>
          <span className="timing-label">{row.label}</span>
          <span className="timing-track">
            <span className={`timing-bar ${row.kind}`} style={bar(row.from, row.to)} />
          </span>
          <span className="timing-ms">{row.to === undefined ? '…' : ms(row.to - row.from)}</span>
        </div>
      ))}
    </div>
  );
}

export function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}
