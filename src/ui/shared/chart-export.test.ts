// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { chartSvgText, legendLayout, wrapText } from './chart-export.ts';

describe('chartSvgText', () => {
  it('wraps the chart with a title and an SVG legend, text escaped, on a white background', () => {
    const svg = new DOMParser().parseFromString(
      '<svg xmlns="http://www.w3.org/2000/svg" class="recharts-surface" width="600" height="300"><circle cx="10" cy="10" r="3"></circle></svg>',
      'image/svg+xml',
    ).documentElement as unknown as SVGSVGElement;
    const out = chartSvgText(svg, 'Sweep <α> & co', [
      { label: 'GQR target fixed', color: '#0072B2' },
      { label: 'primary only: 0.1420 <script>', color: '#555555', dash: '6 3' },
    ]);
    expect(out.width).toBe(600);
    // 28 title + 300 chart + 12 + 1 legend row (two columns fit in 600 px) + 8
    expect(out.height).toBe(28 + 300 + 12 + 18 + 8);
    const parsed = new DOMParser().parseFromString(out.svg, 'image/svg+xml');
    const root = parsed.documentElement;
    expect(root.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(root.getAttribute('viewBox')).toBe(`0 0 600 ${out.height}`);
    const texts = [...root.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(['Sweep <α> & co', 'GQR target fixed', 'primary only: 0.1420 <script>']);
    expect(out.svg).not.toContain('<script>');
    expect(root.querySelectorAll('circle')).toHaveLength(1);
    expect(root.querySelector('rect')?.getAttribute('fill')).toBe('#ffffff');
    expect([...root.querySelectorAll('line')].map((l) => l.getAttribute('stroke-dasharray'))).toEqual([null, '6 3']);
  });
});

describe('chartSvgText legend', () => {
  it('keeps long legend labels inside the image width and apart from each other', () => {
    const measure = (text: string) => [...text].length * 7;
    const svg = new DOMParser().parseFromString(
      '<svg xmlns="http://www.w3.org/2000/svg" class="recharts-surface" width="800" height="300"></svg>',
      'image/svg+xml',
    ).documentElement as unknown as SVGSVGElement;
    const labels = [
      'GQR target per-step',
      'GQR target fixed',
      'primary only (Dense tiny-bert fp32 multi-vector MaxSim): 0.1420',
      'complementary only (BM25 k1 0.9 · b 0.4 · porter stemming · stop words): 0.7521',
      'RRF k=60: 0.5744',
      'best CC (w=0): 0.7502',
    ];
    const out = chartSvgText(svg, 'Sweep', labels.map((label) => ({ label, color: '#000' })), measure);
    const root = new DOMParser().parseFromString(out.svg, 'image/svg+xml').documentElement;
    const boxes = [...root.querySelectorAll(':scope > text')].slice(1).map((text) => {
      const spans = text.querySelectorAll('tspan');
      const lines = spans.length > 0 ? [...spans].map((t) => t.textContent ?? '') : [text.textContent ?? ''];
      const x = Number(text.getAttribute('x'));
      const y = Number(text.getAttribute('y'));
      return { left: x, right: x + Math.max(...lines.map(measure)), top: y - 12, bottom: y - 12 + lines.length * 18 };
    });
    expect(boxes).toHaveLength(labels.length);
    for (const box of boxes) {
      expect(box.right).toBeLessThanOrEqual(out.width);
      expect(box.bottom).toBeLessThanOrEqual(out.height);
    }
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => expect(a.right <= b.left - 6 || b.right <= a.left - 6 || a.bottom <= b.top || b.bottom <= a.top).toBe(true)),
    );
  });
});

describe('legendLayout', () => {
  const measure = (text: string) => text.length * 7;
  const items = [
    { label: 'GQR target per-step', color: '#0072B2' },
    { label: 'GQR target fixed', color: '#D55E00' },
    { label: 'primary only (Dense tiny-bert fp32 mean-pooled, max 512 tokens): 0.1420', color: '#555555', dash: '6 3' },
    { label: `complementary only (BM25 k1 0.9 · b 0.4 · porter stemming · English stop words · ${'x'.repeat(120)}): 0.2011`, color: '#8c6d31' },
    { label: 'RRF k=60: 0.1811', color: '#7b4173' },
  ];

  it('keeps every label inside the image and off its neighbours, wrapping the ones wider than a row', () => {
    const width = 600;
    const { placements, height } = legendLayout(items, width, 100, measure);
    expect(placements.map((p) => p.item.label)).toEqual(items.map((i) => i.label));
    const boxes = placements.map((p) => ({
      left: p.x,
      right: p.x + 28 + Math.max(...p.lines.map(measure)),
      top: p.y - 12,
      bottom: p.y - 12 + p.lines.length * 18,
    }));
    for (const box of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(width);
      expect(box.bottom).toBeLessThanOrEqual(100 + height);
    }
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top).toBe(true);
    // The long complementary label is wrapped, and joining its lines gives the label back.
    const long = placements[3]!;
    expect(long.lines.length).toBeGreaterThan(1);
    expect(long.lines.join('').replace(/\s+/g, '')).toBe(items[3]!.label.replace(/\s+/g, ''));
  });

  it('puts short labels side by side', () => {
    const { placements, height } = legendLayout(items.slice(0, 2), 600, 0, measure);
    expect(placements.map((p) => p.y)).toEqual([12, 12]);
    expect(height).toBe(18);
  });
});

describe('wrapText', () => {
  it('breaks at spaces, and inside a word only when it is wider than a line', () => {
    const measure = (text: string) => text.length;
    expect(wrapText('aa bb cc', 5, measure)).toEqual(['aa bb', 'cc']);
    expect(wrapText('abcdefghij', 4, measure)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('', 4, measure)).toEqual(['']);
  });
});
