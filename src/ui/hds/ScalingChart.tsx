import { useRef } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BatchAggregate, BatchVariant } from '../../core/index.ts';
import { safeFileName } from '../shared/download.ts';
import { ChartExport, ChartLegend } from '../shared/ChartExport.tsx';
import { coincidentGroups, describeCoincidence, seriesStrokes } from '../shared/series-overlap.ts';
import { budgetLabel, measuredTicks, scalingCsv, scalingPoints } from './scaling-data.ts';

const LINES = [
  { key: 'f1', name: 'F1', color: '#2557d6' },
  { key: 'em', name: 'EM', color: '#b42318' },
  { key: 'evidence', name: 'evidence recall', color: '#15803d' },
] as const;

/**
 * F1 and EM (and evidence recall) against the varied HDS budget: a point per measured budget joined by straight
 * segments (nothing is drawn between budgets that was not measured), ticks exactly at the budgets.
 */
export function ScalingChart({ variants, aggregates, title }: { variants: readonly BatchVariant[]; aggregates: readonly BatchAggregate[]; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const points = scalingPoints(variants, aggregates);
  const param = variants.find((v) => v.sweep)?.sweep?.param;
  if (!param || points.length === 0) return null;
  const label = budgetLabel(param);
  const keys = LINES.map((l) => l.key);
  const groups = coincidentGroups(keys, points);
  const strokes = seriesStrokes(keys, groups);
  const legend = LINES.map((l) => ({ label: l.name, color: l.color, dash: strokes[l.key]!.dash }));
  const nameOf = (key: string) => LINES.find((l) => l.key === key)!.name;
  return (
    <figure className="scaling-chart" aria-label="Search-budget scaling">
      <figcaption>
        Answer quality against {label} ({points.map((p) => `${p.value}: ${p.questions} question(s)`).join(', ')})
      </figcaption>
      <div ref={box} data-testid="scaling-chart">
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={points} margin={{ top: 8, right: 24, bottom: 16, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="value" type="number" domain={['dataMin', 'dataMax']} ticks={measuredTicks(points)} interval={0} label={{ value: label, position: 'insideBottom', offset: -8 }} />
            <YAxis domain={[0, 1]} />
            <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} isAnimationActive={false} />
            {LINES.map((l) => (
              <Line
                key={l.key}
                type="linear"
                dataKey={l.key}
                name={l.name}
                stroke={l.color}
                strokeWidth={strokes[l.key]!.strokeWidth}
                strokeDasharray={strokes[l.key]!.dash}
                dot={{ r: strokes[l.key]!.dotRadius, strokeDasharray: '' }}
                isAnimationActive={false}
                connectNulls
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ChartLegend items={legend} />
      {describeCoincidence(groups, nameOf, () => `the same value at every ${label}`).map((text) => (
        <p key={text} className="hint" data-testid="coincidence-note">
          {text}
        </p>
      ))}
      <ChartExport box={box} title={`${title} — answer quality vs ${label}`} legend={legend} fileBase={safeFileName(`${title} scaling ${label}`, 'hds-scaling')} csv={() => scalingCsv(points, param)} />
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
