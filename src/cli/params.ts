import { CliError } from './io.ts';

/** Parses repeated `--param name=value` options; numbers and booleans are converted. */
export function parseParams(values: readonly string[] | undefined): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = {};
  for (const item of values ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new CliError(`--param expects name=value, got "${item}"`);
    const name = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    params[name] = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  return params;
}

/** Parses a positive integer option, with a message naming the option. */
export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`${name} must be a positive whole number, got "${value}"`);
  return n;
}
