import { checkedNumber, idRecord, type NumericRule } from '../core/index.ts';
import { CliError } from './io.ts';

/** Parses repeated `--param name=value` options; numbers and booleans are converted. */
export function parseParams(values: readonly string[] | undefined): Record<string, string | number | boolean> {
  const params = idRecord<string | number | boolean>();
  for (const item of values ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new CliError(`--param expects name=value, got "${item}"`);
    const name = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    params[name] = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  return params;
}

/**
 * Reads a numeric option by its rule (core/options/numeric-rules.ts), with a message naming the option, the range and
 * the value; `fallback` when the option is absent.
 */
export function numberOption<F extends number | undefined>(name: string, value: string | undefined, rule: NumericRule, fallback: F): number | F {
  if (value === undefined) return fallback;
  try {
    return checkedNumber(name, rule, value);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}
