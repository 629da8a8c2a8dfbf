// The GQR α sweep on real data as a Markdown table and as a PNG chart, for docs/ and the README.
import { figureSvg, type FigureSpec, type LineChartSpec } from '../charts/line-chart.ts';
import { svgToPng } from '../charts/to-png.ts';

export interface SweepResult {
  collection: string;
  points: Array<{ settings: Record<string, string | number>; measures: Record<string, number> }>;
  baselines: Array<{ name: string; measures: Record<string, number>; weight?: number }>;
}

const VARIANTS = [
  ['per-step', 'gd'],
  ['per-step', 'adam'],
  ['fixed', 'gd'],
  ['fixed', 'adam'],
] as const;
const BASELINE_LABELS: Record<string, string> = { primary: 'dense only', complementary: 'BM25 only', rrf: 'RRF k=60', cc: 'best CC' };
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728'];
const BASELINE_COLORS: Record<string, string> = { primary: '#555', complementary: '#999', rrf: '#9467bd', cc: '#8c564b' };

function alphas(sweep: SweepResult): number[] {
  return [...new Set(sweep.points.map((p) => Number(p.settings.mixtureAlpha)))].sort((a, b) => a - b);
}

function variantPoints(sweep: SweepResult, target: string, optimizer: string): Array<[number, Record<string, number>]> {
  return sweep.points
    .filter((p) => p.settings.target === target && p.settings.optimizer === optimizer)
    .map((p) => [Number(p.settings.mixtureAlpha), p.measures] as [number, Record<string, number>])
    .sort((a, b) => a[0] - b[0]);
}

const pair = (m: Record<string, number>) => `${m['nDCG@10']!.toFixed(4)} / ${m['R@100']!.toFixed(4)}`;

/** One Markdown table per collection: GQR variants × α, then the baselines, as nDCG@10 / R@100. */
export function sweepTable(sweeps: SweepResult[]): string {
  return sweeps
    .map((sweep) => {
      const as = alphas(sweep);
      const lines = [`**${sweep.collection}**`, '', `| GQR | ${as.map((a) => `α ${a}`).join(' | ')} |`, `|---|${as.map(() => '---').join('|')}|`];
      for (const [target, optimizer] of VARIANTS) {
        lines.push(`| ${target}, ${optimizer} | ${variantPoints(sweep, target, optimizer).map(([, m]) => pair(m)).join(' | ')} |`);
      }
      lines.push('', '| baseline | nDCG@10 / R@100 |', '|---|---|');
      for (const b of sweep.baselines) lines.push(`| ${BASELINE_LABELS[b.name] ?? b.name}${b.weight !== undefined ? ` (weight ${b.weight})` : ''} | ${pair(b.measures)} |`);
      return lines.join('\n');
    })
    .join('\n\n');
}

/** nDCG@10 against α per GQR variant, baselines as dashed lines; one panel per collection, one legend below. */
export function sweepFigure(sweeps: SweepResult[], title: string): FigureSpec {
  const panels = sweeps.map((sweep): LineChartSpec => {
    const values = [...sweep.points.map((p) => p.measures['nDCG@10']!), ...sweep.baselines.map((b) => b.measures['nDCG@10']!)];
    return {
      title: `${sweep.collection}: nDCG@10`,
      xLabel: 'α (mixtureAlpha)',
      yLabel: 'nDCG@10',
      xTicks: [0, 0.25, 0.5, 0.75, 1],
      yMin: Math.floor(Math.min(...values) * 50) / 50,
      yMax: Math.ceil(Math.max(...values) * 50) / 50,
      yTickCount: 4,
      yFormat: (v) => v.toFixed(3),
      legend: 'none',
      width: 440,
      height: 340,
      series: [
        ...sweep.baselines.map((b) => ({
          name: BASELINE_LABELS[b.name] ?? b.name,
          color: BASELINE_COLORS[b.name] ?? '#000',
          dashed: true,
          markers: false,
          points: [0, 1].map((a): [number, number] => [a, b.measures['nDCG@10']!]),
        })),
        ...VARIANTS.map(([target, optimizer], j) => ({
          name: `GQR ${target}, ${optimizer}`,
          color: COLORS[j]!,
          points: variantPoints(sweep, target, optimizer).map(([a, m]): [number, number] => [a, m['nDCG@10']!]),
        })),
      ],
    };
  });
  const legend = [
    ...VARIANTS.map(([t, o], j) => ({ name: `GQR ${t}, ${o}`, color: COLORS[j]! })),
    ...Object.entries(BASELINE_LABELS).map(([k, name]) => ({ name, color: BASELINE_COLORS[k]!, dashed: true })),
  ];
  return { title, panels, legend };
}

/** Writes the chart as a PNG. */
export async function renderSweepChart(sweeps: SweepResult[], pngPath: string, title = 'GQR on real data: all-MiniLM-L6-v2 primary, BM25 complementary'): Promise<void> {
  await svgToPng(figureSvg(sweepFigure(sweeps, title)), pngPath);
}
