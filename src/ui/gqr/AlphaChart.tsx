import { SERIES_COLORS } from '../shared/series-overlap.ts';
import { useRef } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { safeFileName } from '../shared/download.ts';
import type { ExportLegendItem } from '../shared/chart-export.ts';
import { ChartExport, ChartLegend } from '../shared/ChartExport.tsx';
import { coincidentGroups, describeCoincidence, seriesStrokes } from '../shared/series-overlap.ts';
import type { AlphaChartModel } from './alpha-chart-data.ts';

/** Line colours of the GQR series (colour-blind-safe Okabe–Ito order). */
/** Colour and dash of each reference line. */
export const REFERENCE_STYLES: Record<string, { color: string; dash: string }> = {
  primary: { color: '#555555', dash: '6 3' },
  complementary: { color: '#8c6d31', dash: '2 3' },
  rrf: { color: '#7b4173', dash: '8 3 2 3' },
  cc: { color: '#31a354', dash: '4 4' },
};

const format = (value: number) => value.toFixed(4);

interface AlphaChartProps {
  model: AlphaChartModel;
  /** Title used for exports, e.g. the sweep's name. */
  title: string;
  /** CSV of the sweep's numbers, for the CSV export. */
  csv: () => string;
  /** Called with the grid point id of a clicked point. */
  onSelectPoint?: (pointId: string) => void;
}

/** The measure against the x setting: one line per other setting, baselines as horizontal lines, the best point ringed. */
export function AlphaChart({ model, title, csv, onSelectPoint }: AlphaChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const values = [...model.rows.flatMap((r) => model.series.map((s) => r[s.key])), ...model.references.map((r) => r.value)].filter(
    (v): v is number => typeof v === 'number',
  );
  const { domain, ticks } = niceScale(Math.min(...values), Math.max(...values));
  const seriesKeys = model.series.map((s) => s.key);
  const seriesGroups = coincidentGroups(seriesKeys, model.rows);
  const strokes = seriesStrokes(seriesKeys, seriesGroups);
  // Reference lines are constant: they coincide when their values are equal.
  const referenceKeys = model.references.map((r) => r.key);
  const referenceGroups = coincidentGroups(referenceKeys, [Object.fromEntries(model.references.map((r) => [r.key, r.value]))]);
  const referenceWidths = seriesStrokes(referenceKeys, referenceGroups, 1.5);
  const xName = model.xLabel.split(' ')[0]!;
  const referenceValue = (key: string) => model.references.find((r) => r.key === key)!.value;
  const coincidences = [
    ...describeCoincidence(seriesGroups, (key) => model.series.find((s) => s.key === key)!.legend, () => `the same value at every ${xName}`),
    ...describeCoincidence(referenceGroups, (key) => model.references.find((r) => r.key === key)!.label, (group) => `${group.length > 2 ? 'all' : 'both'} ${format(referenceValue(group[0]!))}`),
  ];
  const legend: ExportLegendItem[] = [
    ...model.series.map((s, i) => ({ label: s.legend, color: SERIES_COLORS[i % SERIES_COLORS.length]!, dash: strokes[s.key]!.dash })),
    ...model.references.map((r) => ({ label: `${r.label}: ${format(r.value)}`, ...REFERENCE_STYLES[r.key]! })),
  ];
  const exportTitle = `${title} — ${model.measure} vs ${model.xLabel}`;
  const fileBase = safeFileName(`${title} ${model.measure} vs ${model.xKey}`, 'gqr-sweep');

  const bestSeries = model.best ? model.series.findIndex((s) => s.key === model.best!.seriesKey) : -1;
  const beaten = model.beatenBy.length > 0;
  return (
    <figure className="alpha-chart" aria-label={`${model.measure} against ${model.xLabel}`}>
      <div ref={box} className="alpha-chart-plot" data-testid="alpha-chart">
        <ResponsiveContainer width="100%" height={360}>
          <LineChart data={model.rows} margin={{ top: 16, right: 36, bottom: 28, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#ddd" />
            <XAxis
              dataKey="x"
              type="number"
              domain={['dataMin', 'dataMax']}
              ticks={model.rows.map((r) => r.x)}
              label={{ value: model.xLabel, position: 'insideBottom', offset: -16 }}
            />
            <YAxis domain={domain} ticks={ticks} tickFormatter={(v: number) => v.toFixed(decimals(ticks))} width={64} label={{ value: model.measure, angle: -90, position: 'insideLeft', offset: 4 }} />
            <Tooltip content={<ChartTooltip model={model} />} isAnimationActive={false} />
            {model.references.map((r) => (
              <ReferenceLine
                key={r.key}
                y={r.value}
                stroke={REFERENCE_STYLES[r.key]!.color}
                strokeDasharray={REFERENCE_STYLES[r.key]!.dash}
                strokeWidth={referenceWidths[r.key]!.strokeWidth}
                ifOverflow="extendDomain"
                className={`reference-${r.key}`}
              />
            ))}
            {model.series.map((s, i) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.legend}
                stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
                strokeWidth={strokes[s.key]!.strokeWidth}
                strokeDasharray={strokes[s.key]!.dash}
                dot={{ r: strokes[s.key]!.dotRadius, strokeDasharray: '' }}
                activeDot={{
                  r: strokes[s.key]!.dotRadius + 2.5,
                  onClick: (_event: unknown, dot: unknown) => {
                    const x = (dot as { payload?: { x?: number } }).payload?.x;
                    const id = x === undefined ? undefined : model.pointIds[s.key]?.[x];
                    if (id) onSelectPoint?.(id);
                  },
                }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
            {model.best && (
              <ReferenceDot
                x={model.best.x}
                y={model.best.value}
                r={9}
                fill="none"
                stroke="#d62728"
                strokeWidth={2}
                className="best-point"
                label={{ value: beaten ? 'best GQR' : 'best', position: 'top', fill: '#d62728', fontSize: 12 }}
              />
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption>
        <ChartLegend items={legend} />
        {coincidences.map((text) => (
          <p key={text} className="hint" data-testid="coincidence-note">
            {text}
          </p>
        ))}
        {model.best && (
          <p data-testid="best-point">
            Best: {model.measure} {format(model.best.value)} at {xName} = {model.best.x}
            {bestSeries >= 0 && model.series.length > 1 ? ` (${model.series[bestSeries]!.label})` : ''}
            {beaten
              ? ` — the best GQR point, below ${model.beatenBy.map((r) => `${r.label} (${format(r.value)})`).join(' and ')}: on ${model.measure} GQR does not beat ${model.beatenBy.length > 1 ? 'these baselines' : 'this baseline'} here.`
              : ''}
          </p>
        )}
        <ChartExport box={box} title={exportTitle} legend={legend} fileBase={fileBase} csv={csv} />
      </figcaption>
    </figure>
  );
}

/** A y range on round numbers that holds [min, max], with its ticks (about five steps of 1, 2 or 5 × 10^n). */
export function niceScale(min: number, max: number): { domain: [number, number]; ticks: number[] } {
  const span = Math.max(max - min, 0.01);
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const low = Math.max(0, Math.floor((min - step * 0.25) / step) * step);
  const high = Math.ceil((max + step * 0.25) / step) * step;
  const ticks: number[] = [];
  for (let t = low; t <= high + step / 2; t += step) ticks.push(Number(t.toFixed(10)));
  return { domain: [ticks[0]!, ticks[ticks.length - 1]!], ticks };
}

function decimals(ticks: readonly number[]): number {
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 0.1;
  return Math.min(6, Math.max(1, Math.ceil(-Math.log10(step) - 1e-9)));
}

/** Exact values at the hovered x: every series, then the reference lines. */
function ChartTooltip({ model, active, label }: { model: AlphaChartModel; active?: boolean; label?: number | string }) {
  if (!active || label === undefined) return null;
  const x = Number(label);
  const row = model.rows.find((r) => r.x === x);
  if (!row) return null;
  return (
    <div className="chart-tooltip" role="status">
      <strong>
        {model.xLabel.split(' ')[0]} = {x}
      </strong>
      <table>
        <tbody>
          {model.series.map((s, i) => (
            <tr key={s.key}>
              <td style={{ color: SERIES_COLORS[i % SERIES_COLORS.length] }}>{s.legend}</td>
              <td className="num">{typeof row[s.key] === 'number' ? format(row[s.key] as number) : '—'}</td>
            </tr>
          ))}
          {model.references.map((r) => (
            <tr key={r.key}>
              <td style={{ color: REFERENCE_STYLES[r.key]!.color }}>{r.label}</td>
              <td className="num">{format(r.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
