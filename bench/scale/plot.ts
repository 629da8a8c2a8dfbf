// Line charts as SVG (log-scale x), turned into PNG by headless Chromium: no Python, no charting library.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

export interface Series {
  label: string;
  points: Array<[number, number]>;
}

export interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** A horizontal goal line. */
  goal?: { value: number; label: string };
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const W = 640;
const H = 400;
const M = { left: 70, right: 20, top: 40, bottom: 50 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const fmt = (v: number) => (v >= 1e6 ? `${+(v / 1e6).toPrecision(3)}M` : v >= 1e3 ? `${+(v / 1e3).toPrecision(3)}k` : String(+v.toPrecision(3)));

export function chartSvg(chart: Chart): string {
  const xs = chart.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = chart.series.flatMap((s) => s.points.map((p) => p[1])).concat(chart.goal ? [chart.goal.value] : []);
  const x0 = Math.log10(Math.min(...xs));
  const x1 = Math.log10(Math.max(...xs)) + 1e-9;
  const y1 = Math.max(...ys) * 1.1 || 1;
  const px = (x: number) => M.left + ((Math.log10(x) - x0) / (x1 - x0)) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - (y / y1) * (H - M.top - M.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15">${esc(chart.title)}</text>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="black"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="black"/>`,
    `<text x="${W / 2}" y="${H - 12}" text-anchor="middle">${esc(chart.xLabel)}</text>`,
    `<text transform="translate(16 ${H / 2}) rotate(-90)" text-anchor="middle">${esc(chart.yLabel)}</text>`,
  ];
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    parts.push(`<text x="${px(x)}" y="${H - M.bottom + 16}" text-anchor="middle">${fmt(x)}</text>`);
  }
  for (let i = 0; i <= 5; i++) {
    const y = (y1 / 5) * i;
    parts.push(`<line x1="${M.left - 4}" y1="${py(y)}" x2="${W - M.right}" y2="${py(y)}" stroke="#ddd"/>`);
    parts.push(`<text x="${M.left - 8}" y="${py(y) + 4}" text-anchor="end">${fmt(y)}</text>`);
  }
  if (chart.goal) {
    const y = py(chart.goal.value);
    parts.push(`<line x1="${M.left}" y1="${y}" x2="${W - M.right}" y2="${y}" stroke="#888" stroke-dasharray="6 4"/>`);
    parts.push(`<text x="${W - M.right - 4}" y="${y - 5}" text-anchor="end" fill="#555">${esc(chart.goal.label)}</text>`);
  }
  chart.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = s.points.map(([x, y]) => `${px(x)},${py(y)}`).join(' ');
    parts.push(`<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [x, y] of s.points) parts.push(`<circle cx="${px(x)}" cy="${py(y)}" r="3.5" fill="${color}"/>`);
    parts.push(`<rect x="${M.left + 12}" y="${M.top + 6 + i * 18}" width="12" height="3" fill="${color}"/>`);
    parts.push(`<text x="${M.left + 30}" y="${M.top + 11 + i * 18}">${esc(s.label)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** Writes each chart as `<dir>/<name>.png` (and its SVG beside it). */
export async function writeCharts(dir: string, charts: Record<string, Chart>): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const written: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: W, height: H } });
    for (const [name, chart] of Object.entries(charts)) {
      const svg = chartSvg(chart);
      fs.writeFileSync(path.join(dir, `${name}.svg`), svg);
      await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
      const file = path.join(dir, `${name}.png`);
      await page.locator('svg').screenshot({ path: file });
      written.push(file);
    }
  } finally {
    await browser.close();
  }
  return written;
}
