// Static line charts as SVG text, for the figures the bench saves into docs/ (the app draws its own with recharts).

export interface LineSeries {
  name: string;
  /** Defaults to the palette, by position. */
  color?: string;
  dashed?: boolean;
  /** A dot at each point (default true). */
  markers?: boolean;
  /** [x, y]; a null y (or y ≤ 0 on a log y axis) leaves a gap. */
  points: Array<[number, number | null]>;
}

export interface LineChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  xLog?: boolean;
  /** Tick positions on the x axis, also its domain (first to last); default: every distinct x. */
  xTicks?: number[];
  /** Log-scale y axis, ticks at powers of ten spanning the data. */
  yLog?: boolean;
  /** Linear y domain; default 0 to 1.1 × the largest value (goal included). */
  yMin?: number;
  yMax?: number;
  /** Intervals between linear y ticks (default 5). */
  yTickCount?: number;
  yFormat?: (v: number) => string;
  series: LineSeries[];
  /** A horizontal dashed goal line with its label. */
  goal?: { value: number; label: string };
  /** Where the series names go (default inside, top left of the plot). */
  legend?: 'inside' | 'right' | 'none';
  width?: number;
  height?: number;
}

export interface LegendItem {
  name: string;
  color: string;
  dashed?: boolean;
}

export interface FigureSpec {
  /** Charts side by side. */
  panels: LineChartSpec[];
  title?: string;
  /** A legend shared by all panels, below them. */
  legend?: LegendItem[];
  legendColumns?: number;
  /** A line of small grey text at the bottom. */
  caption?: string;
}

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const DASH = 'stroke-dasharray="6 4"';

export const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/** 1234 → 1.23k, 2e6 → 2M, 0.5 → 0.5. */
export const compactNumber = (v: number) =>
  v >= 1e6 ? `${+(v / 1e6).toPrecision(3)}M` : v >= 1e3 ? `${+(v / 1e3).toPrecision(3)}k` : String(+v.toPrecision(3));

const size = (spec: LineChartSpec) => ({ width: spec.width ?? 640, height: spec.height ?? 400 });

function powersOfTen(values: number[]): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(Math.min(...values))); e <= Math.ceil(Math.log10(Math.max(...values))); e++) out.push(+(10 ** e).toPrecision(1));
  return out;
}

function legendEntry(item: LegendItem, x: number, y: number): string {
  return (
    `<line x1="${x}" x2="${x + 24}" y1="${y}" y2="${y}" stroke="${item.color}" stroke-width="2.5"${item.dashed ? ` ${DASH}` : ''}/>` +
    `<text x="${x + 30}" y="${y + 4}" font-size="11">${escapeXml(item.name)}</text>`
  );
}

// The chart's elements, drawn in a box from (0, 0) to its width × height.
function chartBody(spec: LineChartSpec): string {
  const { width, height } = size(spec);
  const legend = spec.legend ?? 'inside';
  const m = { top: 40, right: legend === 'right' ? 170 : 20, bottom: 55, left: 70 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const colored = spec.series.map((s, i) => ({ ...s, color: s.color ?? PALETTE[i % PALETTE.length]! }));
  const shown = (y: number | null): y is number => y !== null && Number.isFinite(y) && (!spec.yLog || y > 0);

  const xs = colored.flatMap((s) => s.points.map((p) => p[0]));
  const xTicks = spec.xTicks ?? [...new Set(xs)].sort((a, b) => a - b);
  const fx = (x: number) => (spec.xLog ? Math.log10(x) : x);
  const [x0, x1] = [fx(xTicks[0]!), fx(xTicks.at(-1)!)];
  const px = (x: number) => m.left + ((fx(x) - x0) / (x1 - x0 || 1)) * w;

  const ys = colored.flatMap((s) => s.points.map((p) => p[1]).filter(shown)).concat(spec.goal ? [spec.goal.value] : []);
  let yTicks: number[];
  let py: (y: number) => number;
  if (spec.yLog) {
    yTicks = powersOfTen(ys);
    const [l0, l1] = [Math.log10(yTicks[0]!), Math.log10(yTicks.at(-1)!)];
    py = (y) => m.top + h - ((Math.log10(y) - l0) / (l1 - l0 || 1)) * h;
  } else {
    const lo = spec.yMin ?? 0;
    const hi = spec.yMax ?? (Math.max(...ys) * 1.1 || 1);
    const n = spec.yTickCount ?? 5;
    yTicks = Array.from({ length: n + 1 }, (_, i) => lo + ((hi - lo) * i) / n);
    py = (y) => m.top + h - ((y - lo) / (hi - lo || 1)) * h;
  }
  const yFormat = spec.yFormat ?? compactNumber;

  const out: string[] = [`<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`];
  for (const y of yTicks) {
    out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${py(y)}" y2="${py(y)}" stroke="#e3e3e3"/>`);
    out.push(`<text x="${m.left - 8}" y="${py(y) + 4}" text-anchor="end" font-size="11">${yFormat(y)}</text>`);
  }
  for (const x of xTicks) out.push(`<text x="${px(x)}" y="${m.top + h + 18}" text-anchor="middle" font-size="11">${compactNumber(x)}</text>`);
  out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${m.top + h}" y2="${m.top + h}" stroke="#444"/>`);
  out.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${m.top + h}" stroke="#444"/>`);
  out.push(`<text x="${m.left + w / 2}" y="${height - 14}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  out.push(`<text transform="translate(18 ${m.top + h / 2}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`);
  if (spec.goal) {
    const y = py(spec.goal.value);
    out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${y}" y2="${y}" stroke="#888" ${DASH}/>`);
    out.push(`<text x="${m.left + w - 4}" y="${y - 5}" text-anchor="end" font-size="11" fill="#555">${escapeXml(spec.goal.label)}</text>`);
  }
  colored.forEach((s, i) => {
    let d = '';
    let pen = false;
    for (const [x, y] of s.points) {
      if (!shown(y)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${px(x).toFixed(1)} ${py(y).toFixed(1)} `;
      pen = true;
    }
    out.push(`<path d="${d.trim()}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ` ${DASH}` : ''}/>`);
    if (s.markers ?? true) for (const [x, y] of s.points) if (shown(y)) out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3.5" fill="${s.color}"/>`);
    if (legend === 'inside') out.push(legendEntry(s, m.left + 12, m.top + 10 + i * 18));
    if (legend === 'right') out.push(legendEntry(s, m.left + w + 16, m.top + 10 + i * 22));
  });
  return out.join('\n');
}

const svgOpen = (width: number, height: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, sans-serif" font-size="12">\n<rect width="${width}" height="${height}" fill="white"/>`;

/** One chart as a standalone SVG document. */
export function lineChartSvg(spec: LineChartSpec): string {
  const { width, height } = size(spec);
  return `${svgOpen(width, height)}\n${chartBody(spec)}\n</svg>`;
}

/** Several charts side by side, with an optional overall title, shared legend and caption. */
export function figureSvg(figure: FigureSpec): string {
  const top = figure.title ? 32 : 0;
  const columns = figure.legendColumns ?? 4;
  const legendRows = figure.legend ? Math.ceil(figure.legend.length / columns) : 0;
  const panelsHeight = Math.max(...figure.panels.map((p) => size(p).height));
  const legendColumnWidth = 200;
  const legendWidth = figure.legend ? 70 + Math.min(columns, figure.legend.length) * legendColumnWidth : 0;
  const width = Math.max(legendWidth, figure.panels.reduce((sum, p) => sum + size(p).width, 0));
  const legendTop = top + panelsHeight + 6;
  const captionTop = legendTop + legendRows * 18;
  const height = captionTop + (figure.caption ? 24 : 0) + (legendRows ? 6 : 0);
  const out = [svgOpen(width, height)];
  if (figure.title) out.push(`<text x="20" y="24" font-size="16" font-weight="bold">${escapeXml(figure.title)}</text>`);
  let dx = 0;
  for (const panel of figure.panels) {
    out.push(`<g transform="translate(${dx} ${top})">\n${chartBody(panel)}\n</g>`);
    dx += size(panel).width;
  }
  figure.legend?.forEach((item, k) => out.push(legendEntry(item, 70 + (k % columns) * legendColumnWidth, legendTop + Math.floor(k / columns) * 18 + 6)));
  if (figure.caption) out.push(`<text x="10" y="${captionTop + 16}" font-size="11" fill="#555">${escapeXml(figure.caption)}</text>`);
  out.push('</svg>');
  return out.join('\n');
}
