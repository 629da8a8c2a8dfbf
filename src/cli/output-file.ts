import fs from 'node:fs';
import path from 'node:path';
import { CliError } from './io.ts';

/** The full path of an output file named on the command line; its folder must exist. */
export function writableTarget(cwd: string, file: string): string {
  const full = path.resolve(cwd, file);
  if (!fs.existsSync(path.dirname(full))) throw new CliError(`Cannot write ${file}: folder ${path.dirname(file)} does not exist`);
  return full;
}

/** Writes an output file; `shown` is the name as the user typed it. */
export function writeOutput(full: string, shown: string, text: string): void {
  try {
    fs.writeFileSync(full, text);
  } catch (error) {
    throw new CliError(`Cannot write ${shown}: ${(error as Error).message}`);
  }
}
