// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { chartSvgText } from './chart-export.ts';

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
