// The GQR α sweep on real data as a Markdown table and as a PNG chart (an SVG drawn here, photographed by
// headless Chromium), for docs/ and the README.
import { chromium } from '@playwright/test';

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

/** An SVG line chart: nDCG@10 against α per GQR variant, baselines as dashed lines; one panel per collection. */
export function sweepChartSvg(sweeps: SweepResult[], title: string): string {
  const panelW = 360, panelH = 260, left = 50, top = 50, gap = 30, bottomLegend = 70;
  const width = Math.max(left + 4 * 190 + 40, left + sweeps.length * (panelW + gap));
  const height = top + panelH + bottomLegend;
  const parts: string[] = [`<text x="${left}" y="24" font-size="16" font-weight="bold">${escapeXml(title)}</text>`];
  sweeps.forEach((sweep, i) => {
    const x0 = left + i * (panelW + gap);
    const values = [...sweep.points.map((p) => p.measures['nDCG@10']!), ...sweep.baselines.map((b) => b.measures['nDCG@10']!)];
    const lo = Math.floor(Math.min(...values) * 50) / 50, hi = Math.ceil(Math.max(...values) * 50) / 50;
    const x = (a: number) => x0 + a * panelW;
    const y = (v: number) => top + panelH - ((v - lo) / (hi - lo || 1)) * panelH;
    parts.push(`<rect x="${x0}" y="${top}" width="${panelW}" height="${panelH}" fill="none" stroke="#ccc"/>`);
    parts.push(`<text x="${x0 + panelW / 2}" y="${top - 8}" text-anchor="middle" font-size="13">${escapeXml(sweep.collection)}: nDCG@10</text>`);
    for (let t = 0; t <= 4; t++) {
      const v = lo + ((hi - lo) * t) / 4;
      parts.push(`<text x="${x0 - 4}" y="${y(v) + 4}" text-anchor="end" font-size="10">${v.toFixed(3)}</text>`);
      parts.push(`<text x="${x(t / 4)}" y="${top + panelH + 14}" text-anchor="middle" font-size="10">${t / 4}</text>`);
    }
    parts.push(`<text x="${x0 + panelW / 2}" y="${top + panelH + 30}" text-anchor="middle" font-size="11">α (mixtureAlpha)</text>`);
    for (const b of sweep.baselines) {
      const v = y(b.measures['nDCG@10']!);
      parts.push(`<line x1="${x0}" x2="${x0 + panelW}" y1="${v}" y2="${v}" stroke="${BASELINE_COLORS[b.name] ?? '#000'}" stroke-dasharray="5,4"/>`);
    }
    VARIANTS.forEach(([target, optimizer], j) => {
      const pts = variantPoints(sweep, target, optimizer).map(([a, m]) => `${x(a).toFixed(1)},${y(m['nDCG@10']!).toFixed(1)}`);
      parts.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="${COLORS[j]}" stroke-width="2"/>`);
      for (const p of pts) parts.push(`<circle cx="${p.split(',')[0]}" cy="${p.split(',')[1]}" r="3" fill="${COLORS[j]}"/>`);
    });
  });
  const legend = [
    ...VARIANTS.map(([t, o], j) => [`GQR ${t}, ${o}`, COLORS[j]!, false] as const),
    ...Object.entries(BASELINE_LABELS).map(([k, label]) => [label, BASELINE_COLORS[k]!, true] as const),
  ];
  legend.forEach(([label, color, dashed], k) => {
    const lx = left + (k % 4) * 190, ly = top + panelH + 48 + Math.floor(k / 4) * 16;
    parts.push(`<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${dashed ? ' stroke-dasharray="5,4"' : ''}/>`);
    parts.push(`<text x="${lx + 30}" y="${ly}" font-size="11">${escapeXml(label)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>`;
}

/** Writes the chart as a PNG with headless Chromium (Debian's, as the e2e tests use). */
export async function renderSweepChart(sweeps: SweepResult[], pngPath: string, title = 'GQR on real data: all-MiniLM-L6-v2 primary, BM25 complementary'): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.setContent(`<html><body style="margin:0">${sweepChartSvg(sweeps, title)}</body></html>`);
    await page.locator('svg').screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
