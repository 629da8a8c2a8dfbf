/** A chart row: each series' value at one x (null where the series has no point). */
export type SeriesRow<K extends string> = { readonly [P in K]?: number | null };

/** How one line is drawn so that lines lying on top of each other stay distinguishable. */
export interface SeriesStroke {
  /** Dash pattern; undefined for a solid line. */
  dash: string | undefined;
  strokeWidth: number;
  dotRadius: number;
}

/** Dash patterns by series position: solid first, then patterns that differ in rhythm, not only in length. */
export const SERIES_DASHES: readonly (string | undefined)[] = [undefined, '8 4', '2 3', '10 3 2 3', '5 2', '1 4', '12 2 2 2 2 2', '4 4'];

/**
 * Groups of series with the same value at every x (within `tolerance`; both missing counts as the same), each in
 * series order. Only groups of two or more are returned: these lines would be drawn exactly on top of each other.
 */
export function coincidentGroups<K extends string>(keys: readonly K[], rows: readonly SeriesRow<K>[], tolerance = 1e-9): K[][] {
  const same = (a: K, b: K) =>
    rows.every((row) => {
      const x = row[a] ?? null;
      const y = row[b] ?? null;
      return x === null || y === null ? x === y : Math.abs(x - y) <= tolerance;
    });
  const grouped = new Set<K>();
  const groups: K[][] = [];
  keys.forEach((key, i) => {
    if (grouped.has(key)) return;
    const group = [key, ...keys.slice(i + 1).filter((other) => !grouped.has(other) && same(key, other))];
    if (group.length < 2) return;
    group.forEach((k) => grouped.add(k));
    groups.push(group);
  });
  return groups;
}

/**
 * The stroke of each series: its own dash pattern, and inside a group of coincident series the earlier members
 * wider (and with bigger dots) so that they show as a halo around the later ones, which are drawn on top.
 */
export function seriesStrokes(keys: readonly string[], groups: readonly (readonly string[])[], baseWidth = 2, baseDot = 3.5): Record<string, SeriesStroke> {
  const layerAbove = new Map<string, number>();
  for (const group of groups) group.forEach((key, i) => layerAbove.set(key, group.length - 1 - i));
  return Object.fromEntries(
    keys.map((key, i) => {
      const above = layerAbove.get(key) ?? 0;
      return [key, { dash: SERIES_DASHES[i % SERIES_DASHES.length], strokeWidth: baseWidth + 3 * above, dotRadius: baseDot + 2.5 * above }];
    }),
  );
}

/**
 * Words for the coincident groups, e.g. `“a” and “b” coincide (the same value at every α): …`; `sameness` says
 * how they are the same (`the same value at every α`, `both 0.4200`).
 */
export function describeCoincidence(groups: readonly (readonly string[])[], labelOf: (key: string) => string, sameness: (group: readonly string[]) => string): string[] {
  return groups.map((group) => {
    const names = group.map((k) => `“${labelOf(k)}”`);
    const list = names.length === 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    return `${list} coincide (${sameness(group)}): the lines lie on top of each other, the wider one underneath.`;
  });
}

/** Line colours of charts (colour-blind safe, Okabe–Ito), in series order. */
export const SERIES_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
