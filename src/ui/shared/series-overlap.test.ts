import { describe, expect, it } from 'vitest';
import { coincidentGroups, describeCoincidence, SERIES_DASHES, seriesStrokes } from './series-overlap.ts';

describe('coincidentGroups', () => {
  const rows = [
    { x: 0, a: 0.25, b: 0.25, c: 0.25, d: 0.1 },
    { x: 0.5, a: 0.5, b: 0.5 + 1e-12, c: 0.4, d: 0.5 },
    { x: 1, a: null, b: null, c: 0.3, d: 0.7 },
  ];

  it('finds series equal at every x (within the tolerance, missing points alike)', () => {
    expect(coincidentGroups(['a', 'b', 'c', 'd'], rows)).toEqual([['a', 'b']]);
  });

  it('does not group series that only meet at some x or where one has a point and the other none', () => {
    expect(coincidentGroups(['a', 'c'], rows)).toEqual([]);
    expect(coincidentGroups(['a', 'd'], [{ a: 0.1, d: null }])).toEqual([]);
  });

  it('groups three identical series together, in series order', () => {
    const flat = [
      { x: 1, p: 0.3, q: 0.3, r: 0.2, s: 0.3 },
      { x: 2, p: 0.4, q: 0.4, r: 0.2, s: 0.4 },
    ];
    expect(coincidentGroups(['p', 'q', 'r', 's'], flat)).toEqual([['p', 'q', 's']]);
  });
});

describe('seriesStrokes', () => {
  it('gives every series its own dash pattern and widens the earlier members of a coincident group', () => {
    const strokes = seriesStrokes(['a', 'b', 'c'], [['a', 'c']]);
    expect([strokes.a!.dash, strokes.b!.dash, strokes.c!.dash]).toEqual([SERIES_DASHES[0], SERIES_DASHES[1], SERIES_DASHES[2]]);
    expect(new Set([strokes.a!.dash, strokes.b!.dash, strokes.c!.dash]).size).toBe(3);
    expect(strokes.a!.strokeWidth).toBeGreaterThan(strokes.c!.strokeWidth);
    expect(strokes.a!.dotRadius).toBeGreaterThan(strokes.c!.dotRadius);
    expect(strokes.b).toEqual({ dash: SERIES_DASHES[1], strokeWidth: 2, dotRadius: 3.5 });
    expect(strokes.c!.strokeWidth).toBe(2);
  });
});

describe('describeCoincidence', () => {
  it('names the coinciding series in words', () => {
    const label = (k: string) => `GQR ${k}`;
    expect(describeCoincidence([['a', 'b']], label, () => 'the same value at every α')).toEqual([
      '“GQR a” and “GQR b” coincide (the same value at every α): the lines lie on top of each other, the wider one underneath.',
    ]);
    expect(describeCoincidence([['a', 'b', 'c']], label, (g) => `${g.length} at 0.5`)[0]).toMatch(/^“GQR a”, “GQR b” and “GQR c” coincide \(3 at 0\.5\)/);
  });
});
