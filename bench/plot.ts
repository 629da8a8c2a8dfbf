// Line charts for the bench, drawn as SVG and rendered to PNG by Debian's Chromium (through Playwright).
import fs from 'node:fs';
import { chromium } from '@playwright/test';

export interface Series {
  name: string;
  points: Array<[number, number]>;
}

export interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const W = 560;
const H = 380;
const M = { left: 70, right: 20, top: 40, bottom: 55 };

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function ticks(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
  return out;
}

function format(v: number): string {
  if (v >= 1e6) return `${v / 1e6}M`;
  if (v >= 1e3) return `${v / 1e3}k`;
  return String(v);
}

// One log-log chart as an SVG group.
function chartSvg(chart: Chart, dx: number): string {
  const xs = chart.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = chart.series.flatMap((s) => s.points.map((p) => p[1])).filter((y) => y > 0);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const yt = ticks(Math.min(...ys), Math.max(...ys));
  const [y0, y1] = [yt[0]!, yt[yt.length - 1]!];
  const px = (x: number) => M.left + ((Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0))) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0))) * (H - M.top - M.bottom);
  const parts: string[] = [`<g transform="translate(${dx},0)">`, `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escape(chart.title)}</text>`];
  for (const y of yt) {
    parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${py(y)}" y2="${py(y)}" stroke="#ddd"/>`);
    parts.push(`<text x="${M.left - 6}" y="${py(y) + 4}" text-anchor="end" font-size="11">${format(y)}</text>`);
  }
  for (const x of [...new Set(xs)]) parts.push(`<text x="${px(x)}" y="${H - M.bottom + 16}" text-anchor="middle" font-size="11">${format(x)}</text>`);
  parts.push(`<text x="${W / 2}" y="${H - 12}" text-anchor="middle" font-size="12">${escape(chart.xLabel)}</text>`);
  parts.push(`<text transform="translate(16,${H / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escape(chart.yLabel)}</text>`);
  parts.push(`<rect x="${M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="none" stroke="#888"/>`);
  chart.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const path = s.points.map(([x, y], k) => `${k ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [x, y] of s.points) parts.push(`<circle cx="${px(x)}" cy="${py(y)}" r="3" fill="${color}"/>`);
    parts.push(`<rect x="${M.left + 10}" y="${M.top + 8 + i * 16}" width="12" height="3" fill="${color}"/>`);
    parts.push(`<text x="${M.left + 28}" y="${M.top + 13 + i * 16}" font-size="11">${escape(s.name)}</text>`);
  });
  parts.push('</g>');
  return parts.join('\n');
}

/** Writes the charts side by side as one PNG. */
export async function writeChartsPng(file: string, charts: Chart[], caption: string): Promise<void> {
  const width = W * charts.length;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${H + 24}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
${charts.map((c, i) => chartSvg(c, i * W)).join('\n')}
<text x="10" y="${H + 16}" font-size="11" fill="#555">${escape(caption)}</text>
</svg>`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width, height: H + 24 } });
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    fs.writeFileSync(file, await page.screenshot({ clip: { x: 0, y: 0, width, height: H + 24 } }));
  } finally {
    await browser.close();
  }
}
