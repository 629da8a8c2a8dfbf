// A horizontal bar chart of time (or size) ratios against peers on a log axis, as SVG text: one bar per figure,
// a line at 1 (the peer's own), and each figure's goal as a tick. Lower is better for every bar.
import { escapeXml } from './line-chart.ts';

export interface RatioRow {
  /** What the bar compares, e.g. "BM25 p50, npl vs tantivy". */
  label: string;
  /** Ours divided by the peer's (time or bytes): below 1 we are faster or smaller. */
  ratio: number;
  /** The ratio the goal allows (at most), when there is one. */
  goal?: number;
}

export interface RatioChartSpec {
  title: string;
  rows: RatioRow[];
  /** A line of small grey text at the bottom. */
  caption?: string;
  width?: number;
}

/** The chart as an SVG document. */
export function ratioChartSvg(spec: RatioChartSpec): string {
  const width = spec.width ?? 960;
  const left = 330;
  const right = 90;
  const top = 56;
  const rowHeight = 30;
  const plotHeight = spec.rows.length * rowHeight;
  const height = top + plotHeight + 70;
  const values = spec.rows.flatMap((r) => [r.ratio, r.goal ?? r.ratio]).filter((v) => v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(1, ...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(1, ...values)));
  const x = (v: number) => left + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (width - left - right);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(spec.title)}</text>`,
  ];
  for (let decade = lo; decade <= hi * 1.001; decade *= 10) {
    const at = x(decade);
    parts.push(`<line x1="${at}" y1="${top - 6}" x2="${at}" y2="${top + plotHeight}" stroke="#ddd"/>`);
    parts.push(`<text x="${at}" y="${top + plotHeight + 18}" text-anchor="middle" fill="#444">${decade >= 1 ? decade : decade.toPrecision(1)}×</text>`);
  }
  parts.push(`<line x1="${x(1)}" y1="${top - 10}" x2="${x(1)}" y2="${top + plotHeight}" stroke="#333" stroke-width="1.5"/>`);
  parts.push(`<text x="${x(1)}" y="${top - 14}" text-anchor="middle" fill="#333">the peer's own</text>`);
  spec.rows.forEach((row, i) => {
    const y = top + i * rowHeight;
    const met = row.goal === undefined ? null : row.ratio <= row.goal;
    const color = met === false ? '#d62728' : '#2ca02c';
    const from = x(1);
    const to = x(row.ratio);
    parts.push(`<text x="${left - 8}" y="${y + 19}" text-anchor="end">${escapeXml(row.label)}</text>`);
    parts.push(`<rect x="${Math.min(from, to)}" y="${y + 6}" width="${Math.max(1, Math.abs(to - from))}" height="${rowHeight - 12}" fill="${color}" opacity="0.8"/>`);
    const text = `${row.ratio < 0.1 ? row.ratio.toPrecision(2) : row.ratio.toFixed(2)}×`;
    const labelAt = Math.max(from, to, row.goal === undefined ? from : x(row.goal)) + 6; // clear of the bar, the 1 and the goal
    parts.push(`<text x="${labelAt}" y="${y + 19}" fill="#222">${text}</text>`);
    if (row.goal !== undefined) {
      const g = x(row.goal);
      parts.push(`<line x1="${g}" y1="${y + 2}" x2="${g}" y2="${y + rowHeight - 2}" stroke="#000" stroke-width="2" stroke-dasharray="3 2"/>`);
    }
  });
  const legendY = top + plotHeight + 40;
  parts.push(`<rect x="${left}" y="${legendY - 10}" width="12" height="12" fill="#2ca02c" opacity="0.8"/><text x="${left + 18}" y="${legendY}">goal met (or no goal)</text>`);
  parts.push(`<rect x="${left + 180}" y="${legendY - 10}" width="12" height="12" fill="#d62728" opacity="0.8"/><text x="${left + 198}" y="${legendY}">goal not met</text>`);
  parts.push(`<line x1="${left + 320}" y1="${legendY - 11}" x2="${left + 320}" y2="${legendY + 2}" stroke="#000" stroke-width="2" stroke-dasharray="3 2"/><text x="${left + 328}" y="${legendY}">goal (ours ÷ peer at most)</text>`);
  if (spec.caption) parts.push(`<text x="${width / 2}" y="${height - 8}" text-anchor="middle" font-size="11" fill="#777">${escapeXml(spec.caption)}</text>`);
  parts.push('</svg>');
  return parts.join('\n');
}
