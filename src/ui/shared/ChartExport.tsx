import { useState, type RefObject } from 'react';
import { errorMessage } from './format.ts';
import { downloadBlob, downloadText } from './download.ts';
import { chartSvgText, svgToPng, type ExportLegendItem } from './chart-export.ts';

/** The legend of a chart as an HTML list (recharts' own legend is not part of the exported SVG). */
export function ChartLegend({ items, label = 'Legend' }: { items: readonly ExportLegendItem[]; label?: string }) {
  return (
    <ul className="chart-legend" aria-label={label}>
      {items.map((item) => (
        <li key={item.label}>
          <svg width="24" height="10" aria-hidden="true">
            <line x1="0" x2="24" y1="5" y2="5" stroke={item.color} strokeWidth="2" strokeDasharray={item.dash} />
          </svg>{' '}
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** SVG, PNG and CSV export of the recharts chart drawn inside `box`, with `title` above and `legend` below. */
export function ChartExport({
  box,
  title,
  legend,
  fileBase,
  csv,
}: {
  box: RefObject<HTMLElement | null>;
  title: string;
  legend: readonly ExportLegendItem[];
  fileBase: string;
  csv: () => string;
}) {
  const [exportError, setExportError] = useState<string | null>(null);
  const exportAs = async (kind: 'svg' | 'png') => {
    setExportError(null);
    try {
      const svg = box.current?.querySelector<SVGSVGElement>('svg.recharts-surface');
      if (!svg) throw new Error('The chart is not drawn yet');
      const out = chartSvgText(svg, title, legend);
      if (kind === 'svg') downloadText(`${fileBase}.svg`, out.svg, 'image/svg+xml');
      else downloadBlob(`${fileBase}.png`, await svgToPng(out.svg, out.width, out.height));
    } catch (error) {
      setExportError(`Export failed: ${errorMessage(error)}`);
    }
  };
  return (
    <div className="chart-export" role="group" aria-label="Export chart">
      <button type="button" onClick={() => void exportAs('svg')}>
        Export SVG
      </button>
      <button type="button" onClick={() => void exportAs('png')}>
        Export PNG
      </button>
      <button type="button" onClick={() => downloadText(`${fileBase}.csv`, csv(), 'text/csv')}>
        Export CSV
      </button>
      {exportError && (
        <span className="error" role="alert">
          {exportError}
        </span>
      )}
    </div>
  );
}
