import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BatchAggregate, BatchVariant } from '../../core/index.ts';

/** The points of a budget sweep: one per variant value, with the means over the questions run so far. */
export function scalingPoints(variants: readonly BatchVariant[], aggregates: readonly BatchAggregate[]) {
  return variants
    .filter((v) => v.sweep)
    .map((v) => {
      const a = aggregates.find((x) => x.variantId === v.id);
      return { value: v.sweep!.value, f1: a?.f1 ?? null, em: a?.em ?? null, evidence: a?.evidenceRecall ?? null, questions: a?.questions ?? 0 };
    })
    .sort((a, b) => a.value - b.value);
}

/** F1 and EM (and evidence recall) against the varied HDS budget. */
export function ScalingChart({ variants, aggregates }: { variants: readonly BatchVariant[]; aggregates: readonly BatchAggregate[] }) {
  const points = scalingPoints(variants, aggregates);
  const param = variants.find((v) => v.sweep)?.sweep?.param;
  if (!param || points.length === 0) return null;
  const label = param === 'maxTurns' ? 'max_turns' : 'max_search_calls';
  return (
    <figure className="scaling-chart" aria-label="Search-budget scaling">
      <figcaption>
        Answer quality against {label} ({points.map((p) => `${p.value}: ${p.questions} question(s)`).join(', ')})
      </figcaption>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={points} margin={{ top: 8, right: 24, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="value" type="number" domain={['dataMin', 'dataMax']} allowDecimals={false} label={{ value: label, position: 'insideBottom', offset: -8 }} />
          <YAxis domain={[0, 1]} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} />
          <Legend verticalAlign="top" />
          <Line type="monotone" dataKey="f1" name="F1" stroke="#2557d6" isAnimationActive={false} connectNulls />
          <Line type="monotone" dataKey="em" name="EM" stroke="#b42318" isAnimationActive={false} connectNulls />
          <Line type="monotone" dataKey="evidence" name="evidence recall" stroke="#15803d" strokeDasharray="4 3" isAnimationActive={false} connectNulls />
        </LineChart>
      </ResponsiveContainer>
      <table className="compact" aria-label="Scaling points">
        <thead>
          <tr>
            <th>{label}</th>
            <th>questions</th>
            <th>EM</th>
            <th>F1</th>
            <th>evidence recall</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.value}>
              <td>{p.value}</td>
              <td>{p.questions}</td>
              <td>{fmt(p.em)}</td>
              <td>{fmt(p.f1)}</td>
              <td>{fmt(p.evidence)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

export function fmt(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined ? '—' : value.toFixed(digits);
}
