import fs from 'node:fs';
import path from 'node:path';

/** Where the shared test collections are, when this checkout sits beside them (DSW_SHARED_DATA names another place). */
export const SHARED_DATA = process.env.DSW_SHARED_DATA ? path.resolve(process.env.DSW_SHARED_DATA) : path.resolve(import.meta.dirname, '../../shared/data');

export function sharedDataset(name: string): string | null {
  const dir = path.join(SHARED_DATA, name);
  return fs.existsSync(path.join(dir, 'corpus.jsonl')) ? dir : null;
}

/** Runs `fn` `repeats` times after one warm-up and returns the median wall time in ms. */
export async function medianMs(fn: () => unknown | Promise<unknown>, repeats = 5): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function heading(title: string): void {
  console.log(`\n## ${title}\n`);
}

/** Prints one measured figure against its goal; `ok` says whether the goal is met. */
export function figure(name: string, value: string, goal: string, ok: boolean | null): void {
  const mark = ok === null ? '' : ok ? '  [goal met]' : '  [goal NOT met]';
  console.log(`${name.padEnd(52)} ${value.padStart(14)}   goal ${goal}${mark}`);
}
