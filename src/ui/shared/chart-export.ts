/** A legend entry drawn into an exported chart (recharts draws its legend as HTML, outside the SVG). */
export interface ExportLegendItem {
  label: string;
  color: string;
  /** Stroke dash pattern; absent for a solid line. */
  dash?: string;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const LEGEND_ROW = 18;
const FONT = '12px system-ui, -apple-system, "Segoe UI", sans-serif';

/**
 * A standalone SVG document of a rendered chart: the chart's own `<svg>` cloned, on a white background, with a
 * title above and the legend below (as SVG text, so any viewer shows it). Text is set with `textContent`.
 */
export function chartSvgText(chart: SVGSVGElement, title: string, legend: readonly ExportLegendItem[]): { svg: string; width: number; height: number } {
  const doc = chart.ownerDocument;
  const width = Math.ceil(chart.width.baseVal.value || chart.getBoundingClientRect().width || 800);
  const chartHeight = Math.ceil(chart.height.baseVal.value || chart.getBoundingClientRect().height || 400);
  const top = 28;
  const columns = Math.max(1, Math.floor(width / 260));
  const legendRows = Math.ceil(legend.length / columns);
  const height = top + chartHeight + 12 + legendRows * LEGEND_ROW + 8;

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

  const heading = doc.createElementNS(SVG_NS, 'text');
  heading.setAttribute('x', '12');
  heading.setAttribute('y', '19');
  heading.setAttribute('font-size', '14');
  heading.setAttribute('font-weight', '600');
  heading.textContent = title;
  root.append(heading);

  const body = chart.cloneNode(true) as SVGSVGElement;
  body.setAttribute('x', '0');
  body.setAttribute('y', String(top));
  body.setAttribute('width', String(width));
  body.setAttribute('height', String(chartHeight));
  body.removeAttribute('style');
  root.append(body);

  const columnWidth = width / columns;
  legend.forEach((item, i) => {
    const x = 12 + (i % columns) * columnWidth;
    const y = top + chartHeight + 12 + Math.floor(i / columns) * LEGEND_ROW + 8;
    const line = doc.createElementNS(SVG_NS, 'line');
    line.setAttribute('x1', String(x));
    line.setAttribute('x2', String(x + 22));
    line.setAttribute('y1', String(y - 4));
    line.setAttribute('y2', String(y - 4));
    line.setAttribute('stroke', item.color);
    line.setAttribute('stroke-width', '2');
    if (item.dash) line.setAttribute('stroke-dasharray', item.dash);
    const text = doc.createElementNS(SVG_NS, 'text');
    text.setAttribute('x', String(x + 28));
    text.setAttribute('y', String(y));
    text.textContent = item.label;
    root.append(line, text);
  });
  return { svg: new XMLSerializer().serializeToString(root), width, height };
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
