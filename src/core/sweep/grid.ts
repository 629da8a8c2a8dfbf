import { resolveGqrConfig, type GqrConfig } from '../gqr/index.ts';

/**
 * The GQR settings a sweep may vary. They all act after the child retrievals, so every grid point can share one
 * set of child results per query (`fetchKMultiplier` and `scorerMode` change what is retrieved, so they are fixed
 * for a whole sweep).
 */
export type SweepKey = 'mixtureAlpha' | 'temperature' | 'learningRate' | 'nSteps' | 'candidatePoolMode' | 'target' | 'optimizer';

/** A grid value: a number for numeric settings, a mode name otherwise. */
export type SweepValue = number | string;

/** One axis of a grid: a setting and the values it takes, in the order given. */
export interface GridAxis {
  /** The setting. */
  key: SweepKey;
  /** Its values (at least one, no repeats). */
  values: SweepValue[];
}

/** One point of an expanded grid. */
export interface GridPoint {
  /** Stable id from the point's settings, e.g. `mixtureAlpha=0.25,target=fixed`. */
  id: string;
  /** Position in the expansion order. */
  index: number;
  /** The swept settings of this point (only the grid's keys). */
  settings: Partial<Record<SweepKey, SweepValue>>;
  /** The full, validated GQR configuration: the sweep's base config with this point's settings. */
  config: GqrConfig;
}

/** A grid that cannot be run; the message says which key or value is wrong and what is allowed. */
export class SweepGridError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SweepGridError';
  }
}

/** The sweepable settings, in display order. */
export const SWEEP_KEYS: readonly SweepKey[] = ['mixtureAlpha', 'temperature', 'learningRate', 'nSteps', 'candidatePoolMode', 'target', 'optimizer'];

/** The allowed values of the mode settings. */
export const SWEEP_MODE_VALUES: Readonly<Partial<Record<SweepKey, readonly string[]>>> = {
  candidatePoolMode: ['union', 'primary'],
  target: ['per-step', 'fixed'],
  optimizer: ['gd', 'adam'],
};

/** Largest number of grid points a sweep accepts. */
export const MAX_GRID_POINTS = 500;

/** Other spellings accepted for keys: the reference's snake_case names and `alpha`. */
const KEY_ALIASES: Record<string, SweepKey> = {
  alpha: 'mixtureAlpha',
  mixture_alpha: 'mixtureAlpha',
  learning_rate: 'learningRate',
  lr: 'learningRate',
  n_steps: 'nSteps',
  steps: 'nSteps',
  candidate_pool_mode: 'candidatePoolMode',
  pool: 'candidatePoolMode',
};

/** Short names for labels and chart legends. */
const KEY_LABELS: Record<SweepKey, string> = {
  mixtureAlpha: 'α',
  temperature: 'τ',
  learningRate: 'η',
  nSteps: 'steps',
  candidatePoolMode: 'pool',
  target: 'target',
  optimizer: 'optimizer',
};

/** True for settings whose values are numbers (and can be a chart's x axis). */
export function isNumericSweepKey(key: SweepKey): boolean {
  return !(key in SWEEP_MODE_VALUES);
}

/** The canonical key for a name or alias; throws a SweepGridError listing the known keys. */
export function sweepKey(name: string): SweepKey {
  const trimmed = name.trim();
  if ((SWEEP_KEYS as readonly string[]).includes(trimmed)) return trimmed as SweepKey;
  const alias = KEY_ALIASES[trimmed] ?? KEY_ALIASES[trimmed.toLowerCase()];
  if (alias) return alias;
  const fixedHint =
    trimmed === 'fetchKMultiplier' || trimmed === 'poolSize' || trimmed === 'scorerMode'
      ? ` (${trimmed} changes the child retrievals, so it is fixed for a whole sweep: set it with --param)`
      : '';
  throw new SweepGridError(`Unknown grid key "${trimmed}"${fixedHint}; sweepable keys: ${SWEEP_KEYS.join(', ')}`);
}

/** A short label for a key (`α`, `τ`, `η`, …). */
export function sweepKeyLabel(key: SweepKey): string {
  return KEY_LABELS[key];
}

/** Parses one `key=v1,v2,…` axis as typed on the command line. */
export function parseGridAxis(text: string): GridAxis {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new SweepGridError(`A grid axis is written key=value1,value2,…; got "${text}"`);
  const key = sweepKey(text.slice(0, eq));
  const raw = text
    .slice(eq + 1)
    .split(',')
    .map((v) => v.trim());
  if (raw.length === 0 || raw.every((v) => v === '')) throw new SweepGridError(`Grid key ${key} has no values`);
  return { key, values: raw.map((value) => parseSweepValue(key, value)) };
}

/** Converts a typed value to the key's type; throws a SweepGridError naming the key and the allowed values. */
export function parseSweepValue(key: SweepKey, value: string): SweepValue {
  if (value === '') throw new SweepGridError(`Grid key ${key} has an empty value (check for a stray comma)`);
  const modes = SWEEP_MODE_VALUES[key];
  if (modes) {
    if (!modes.includes(value)) throw new SweepGridError(`${key}=${value}: ${key} must be one of ${modes.join(', ')}`);
    return value;
  }
  const number = Number(value);
  if (!Number.isFinite(number)) throw new SweepGridError(`${key}=${value}: ${key} must be a number`);
  return number;
}

/**
 * Checks a grid against a base configuration: known keys, each key once, at least one value, no repeated value,
 * each value valid for GQR (the reference's message, prefixed with `key=value`), and at most
 * {@link MAX_GRID_POINTS} points. Returns the axes unchanged.
 */
export function validateGrid(axes: readonly GridAxis[], base: Partial<GqrConfig> = {}): GridAxis[] {
  if (axes.length === 0) throw new SweepGridError(`The grid is empty; give at least one key, e.g. mixtureAlpha=0,0.5,1`);
  const resolvedBase = resolveBase(base);
  const seen = new Set<SweepKey>();
  let points = 1;
  for (const axis of axes) {
    const key = sweepKey(axis.key);
    if (seen.has(key)) throw new SweepGridError(`Grid key ${key} is given twice; list all its values in one axis`);
    seen.add(key);
    if (axis.values.length === 0) throw new SweepGridError(`Grid key ${key} has no values`);
    const values = new Set<string>();
    for (const value of axis.values) {
      checkValueType(key, value);
      if (values.has(String(value))) throw new SweepGridError(`Grid key ${key} repeats the value ${value}`);
      values.add(String(value));
      try {
        resolveGqrConfig({ ...resolvedBase, [key]: value });
      } catch (error) {
        throw new SweepGridError(`${key}=${value}: ${(error as Error).message}`);
      }
    }
    points *= axis.values.length;
  }
  if (points > MAX_GRID_POINTS) throw new SweepGridError(`The grid has ${points} points; at most ${MAX_GRID_POINTS} are allowed`);
  return axes.map((axis) => ({ key: sweepKey(axis.key), values: [...axis.values] }));
}

/**
 * Validates the grid and expands it into points: the cartesian product of the axes, the first axis varying
 * slowest. Each point's config is the base config with the point's settings.
 */
export function expandGrid(axes: readonly GridAxis[], base: Partial<GqrConfig> = {}): GridPoint[] {
  const valid = validateGrid(axes, base);
  const resolvedBase = resolveBase(base);
  let combos: Partial<Record<SweepKey, SweepValue>>[] = [{}];
  for (const axis of valid) combos = combos.flatMap((combo) => axis.values.map((value) => ({ ...combo, [axis.key]: value })));
  return combos.map((settings, index) => ({
    id: gridPointId(settings, valid),
    index,
    settings,
    config: resolveGqrConfig({ ...resolvedBase, ...(settings as Partial<GqrConfig>) }),
  }));
}

/** `key=value` pairs in axis order, comma-separated. */
function gridPointId(settings: Partial<Record<SweepKey, SweepValue>>, axes: readonly GridAxis[]): string {
  return axes.map((axis) => `${axis.key}=${settings[axis.key]}`).join(',');
}

/** A readable label of some settings, e.g. `α 0.25 · target fixed`. */
export function describeSettings(settings: Partial<Record<SweepKey, SweepValue>>): string {
  const parts = SWEEP_KEYS.filter((key) => settings[key] !== undefined).map((key) => `${KEY_LABELS[key]} ${settings[key]}`);
  return parts.length > 0 ? parts.join(' · ') : 'defaults';
}

function resolveBase(base: Partial<GqrConfig>): GqrConfig {
  try {
    return resolveGqrConfig(base);
  } catch (error) {
    throw new SweepGridError(`The base GQR settings are invalid: ${(error as Error).message}`);
  }
}

function checkValueType(key: SweepKey, value: SweepValue): void {
  const modes = SWEEP_MODE_VALUES[key];
  if (modes) {
    if (typeof value !== 'string' || !modes.includes(value)) {
      throw new SweepGridError(`${key}=${value}: ${key} must be one of ${modes.join(', ')}`);
    }
  } else if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SweepGridError(`${key}=${value}: ${key} must be a number`);
  }
}
