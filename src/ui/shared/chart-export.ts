/** A legend entry drawn into an exported chart (recharts draws its legend as HTML, outside the SVG). */
export interface ExportLegendItem {
  label: string;
  color: string;
  /** Stroke dash pattern; absent for a solid line. */
  dash?: string;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const LEGEND_ROW = 18;
const FONT_PX = 12;
const FONT = `${FONT_PX}px system-ui, -apple-system, "Segoe UI", sans-serif`;
const PAD = 12;
/** Swatch line plus the gap before its text. */
const SWATCH = 28;
const COLUMN_GAP = 16;

/** Width in px of `text` in the legend font. */
export type MeasureText = (text: string) => number;

/** Where one legend entry goes: its swatch at (x, y - 4), its text in lines from baseline y. */
export interface LegendPlacement {
  item: ExportLegendItem;
  x: number;
  y: number;
  lines: string[];
}

/**
 * The legend below a chart of `width`: as many equal columns as the widest label allows, and labels that are
 * wider than a whole row wrapped onto more lines, so that no text runs past the image's edge or into a neighbour.
 * `top` is where the legend starts; returns the placements and the legend's height.
 */
export function legendLayout(legend: readonly ExportLegendItem[], width: number, top: number, measure: MeasureText): { placements: LegendPlacement[]; height: number } {
  const usable = Math.max(width - 2 * PAD, SWATCH + 40);
  const widest = Math.max(0, ...legend.map((item) => SWATCH + measure(item.label)));
  const columns = Math.max(1, Math.min(legend.length, Math.floor((usable + COLUMN_GAP) / (widest + COLUMN_GAP))));
  const columnWidth = (usable + COLUMN_GAP) / columns;
  const textWidth = columnWidth - COLUMN_GAP - SWATCH;
  const placements: LegendPlacement[] = [];
  let rowTop = top;
  for (let start = 0; start < legend.length; start += columns) {
    const row = legend.slice(start, start + columns).map((item) => ({ item, lines: wrapText(item.label, textWidth, measure) }));
    row.forEach(({ item, lines }, i) => placements.push({ item, lines, x: PAD + i * columnWidth, y: rowTop + FONT_PX }));
    rowTop += Math.max(...row.map((r) => r.lines.length)) * LEGEND_ROW;
  }
  return { placements, height: rowTop - top };
}

/** `text` in lines no wider than `maxWidth`: broken at spaces, and inside a word only when the word alone is too wide. */
export function wrapText(text: string, maxWidth: number, measure: MeasureText): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(?<=\s)/u)) {
    if (measure(line + word.trimEnd()) <= maxWidth) {
      line += word;
      continue;
    }
    if (line) lines.push(line.trimEnd());
    line = '';
    for (const char of word) {
      if (line && measure(line + char) > maxWidth) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line.trimEnd() || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/** Measures with a canvas in the legend font; without a canvas (tests outside a browser), a generous estimate. */
export function canvasMeasure(doc: Document): MeasureText {
  const context = (() => {
    try {
      return doc.createElement('canvas').getContext('2d');
    } catch {
      return null;
    }
  })();
  if (context) {
    context.font = FONT;
    return (text) => context.measureText(text).width;
  }
  return (text) => [...text].length * FONT_PX * 0.62;
}

/**
 * A standalone SVG document of a rendered chart: the chart's own `<svg>` cloned, on a white background, with a
 * title above and the legend below (as SVG text, so any viewer shows it). Text is set with `textContent`.
 */
export function chartSvgText(
  chart: SVGSVGElement,
  title: string,
  legend: readonly ExportLegendItem[],
  measure: MeasureText = canvasMeasure(chart.ownerDocument),
): { svg: string; width: number; height: number } {
  const doc = chart.ownerDocument;
  const width = Math.ceil(chart.width.baseVal.value || chart.getBoundingClientRect().width || 800);
  const chartHeight = Math.ceil(chart.height.baseVal.value || chart.getBoundingClientRect().height || 400);
  const top = 28;
  const legendTop = top + chartHeight + 12;
  const titleLines = wrapText(title, width - 2 * PAD, (text) => measure(text) * (14 / FONT_PX));
  const titleHeight = (titleLines.length - 1) * LEGEND_ROW;
  const layout = legendLayout(legend, width, legendTop + titleHeight, measure);
  const height = legendTop + titleHeight + layout.height + 8;

  const root = doc.createElementNS(SVG_NS, 'svg');
  root.setAttribute('xmlns', SVG_NS);
  root.setAttribute('width', String(width));
  root.setAttribute('height', String(height));
  root.setAttribute('viewBox', `0 0 ${width} ${height}`);
  root.setAttribute('style', `font: ${FONT}; background: #fff`);
  const background = doc.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', '#ffffff');
  root.append(background);

  const heading = textElement(doc, PAD, 19, titleLines);
  heading.setAttribute('font-size', '14');
  heading.setAttribute('font-weight', '600');
  root.append(heading);

  const body = chart.cloneNode(true) as SVGSVGElement;
  body.setAttribute('x', '0');
  body.setAttribute('y', String(top + titleHeight));
  body.setAttribute('width', String(width));
  body.setAttribute('height', String(chartHeight));
  body.removeAttribute('style');
  root.append(body);

  for (const { item, x, y, lines } of layout.placements) {
    const line = doc.createElementNS(SVG_NS, 'line');
    line.setAttribute('x1', String(x));
    line.setAttribute('x2', String(x + SWATCH - 6));
    line.setAttribute('y1', String(y - 4));
    line.setAttribute('y2', String(y - 4));
    line.setAttribute('stroke', item.color);
    line.setAttribute('stroke-width', '2');
    if (item.dash) line.setAttribute('stroke-dasharray', item.dash);
    root.append(line, textElement(doc, x + SWATCH, y, lines));
  }
  return { svg: new XMLSerializer().serializeToString(root), width, height };
}

/** A `<text>` at (x, y), one `<tspan>` per further line. */
function textElement(doc: Document, x: number, y: number, lines: readonly string[]): SVGTextElement {
  const text = doc.createElementNS(SVG_NS, 'text');
  text.setAttribute('x', String(x));
  text.setAttribute('y', String(y));
  if (lines.length === 1) {
    text.textContent = lines[0]!;
    return text;
  }
  lines.forEach((content, i) => {
    const span = doc.createElementNS(SVG_NS, 'tspan');
    span.setAttribute('x', String(x));
    if (i > 0) span.setAttribute('dy', String(LEGEND_ROW));
    span.textContent = content;
    text.append(span);
  });
  return text;
}

/** Draws SVG text onto a canvas at `scale` and returns a PNG. */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = new Image();
    image.decoding = 'sync';
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('The chart could not be drawn as an image'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw on a canvas');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
