// `--encoding`: one definition for every command that reads corpus, queries, qrels or run files.
import { TEXT_ENCODINGS, type TextEncodingChoice } from '../core/index.ts';
import { CliError } from './io.ts';

/** The parseArgs entry; spread into a command's options. */
export const ENCODING_OPTIONS = { encoding: { type: 'string' } } as const;

/** The help lines, for a help text whose flags are padded to `width` columns. */
export function encodingHelp(width: number): string {
  const flag = '--encoding <name>';
  const indent = ' '.repeat(width + 4);
  const text = `utf-8 (default) or latin1: how files without a byte-order mark are read (a BOM\n${indent}picks UTF-8 or UTF-16); lines that are not valid UTF-8 are skipped with a warning`;
  return flag.length <= width ? `  ${flag.padEnd(width)}  ${text}` : `  ${flag}\n${indent}${text}`;
}

/** The value of `--encoding`; default UTF-8. */
export function encodingOption(value: string | undefined): TextEncodingChoice {
  if (value === undefined) return 'utf-8';
  const name = value.toLowerCase().replace(/^utf8$/, 'utf-8').replace(/^(latin-1|iso-8859-1)$/, 'latin1');
  if (!(TEXT_ENCODINGS as readonly string[]).includes(name)) throw new CliError(`--encoding must be ${TEXT_ENCODINGS.join(' or ')}, not '${value}'`);
  return name as TextEncodingChoice;
}
