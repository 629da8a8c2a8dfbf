// `--keep-empty-documents`: one definition for every command that loads a dataset's corpus.
/** The parseArgs entry; spread into a command's options. */
export const KEEP_EMPTY_OPTIONS = { 'keep-empty-documents': { type: 'boolean', default: false } } as const;

/** The help lines, for a help text whose flags are padded to `width` columns. */
export function keepEmptyHelp(width: number): string {
  const flag = '--keep-empty-documents';
  const indent = ' '.repeat(width + 4);
  const text = `keep documents whose text is empty (Cranfield has two) instead of skipping them with a\n${indent}warning, so their judgements stay and the judged set matches the official qrels`;
  return flag.length <= width ? `  ${flag.padEnd(width)}  ${text}` : `  ${flag}\n${indent}${text}`;
}
