// A static line chart as SVG text (for charts the bench saves into docs/; the app draws its own with recharts).

export interface ChartSeries {
  name: string;
  color: string;
  dashed?: boolean;
  /** y per x; null leaves a gap. */
  points: Array<{ x: number; y: number | null }>;
}

export interface LineChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Tick positions on the x axis (also the domain: first to last). */
  xTicks: number[];
  /** Log-scale x axis (budgets 1, 2, 4, 8). */
  xLog?: boolean;
  yMax?: number;
  series: ChartSeries[];
}

const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

export function lineChartSvg(spec: LineChartSpec, width = 720, height = 420): string {
  const m = { top: 56, right: 170, bottom: 56, left: 64 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const fx = (x: number) => (spec.xLog ? Math.log2(x) : x);
  const [x0, x1] = [fx(spec.xTicks[0]!), fx(spec.xTicks.at(-1)!)];
  const yMax = spec.yMax ?? 1;
  const px = (x: number) => m.left + ((fx(x) - x0) / (x1 - x0 || 1)) * w;
  const py = (y: number) => m.top + h - (y / yMax) * h;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, sans-serif" font-size="13">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${m.left}" y="28" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`);
  for (let i = 0; i <= 5; i++) {
    const y = (yMax * i) / 5;
    out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${py(y)}" y2="${py(y)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${m.left - 8}" y="${py(y) + 4}" text-anchor="end">${y.toFixed(2)}</text>`);
  }
  for (const t of spec.xTicks) {
    out.push(`<line x1="${px(t)}" x2="${px(t)}" y1="${m.top}" y2="${m.top + h}" stroke="#f3f4f6"/>`);
    out.push(`<text x="${px(t)}" y="${m.top + h + 18}" text-anchor="middle">${t}</text>`);
  }
  out.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${m.top + h}" y2="${m.top + h}" stroke="#374151"/>`);
  out.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${m.top + h}" stroke="#374151"/>`);
  out.push(`<text x="${m.left + w / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  out.push(`<text transform="translate(18 ${m.top + h / 2}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`);
  spec.series.forEach((s, i) => {
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    let d = '';
    let pen = false;
    for (const p of s.points) {
      if (p.y === null) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${px(p.x).toFixed(1)} ${py(p.y).toFixed(1)} `;
      pen = true;
    }
    out.push(`<path d="${d.trim()}" fill="none" stroke="${s.color}" stroke-width="2.5"${dash}/>`);
    for (const p of s.points) if (p.y !== null) out.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="4" fill="${s.color}"/>`);
    const ly = m.top + 10 + i * 22;
    out.push(`<line x1="${m.left + w + 16}" x2="${m.left + w + 44}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2.5"${dash}/>`);
    out.push(`<text x="${m.left + w + 50}" y="${ly + 4}">${escapeXml(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
