import { findBeirRoot, planBeir } from './beir.ts';
import type { FileFormat, PlannedFile } from './planned-file.ts';
import { extension, isJunkPath, sourcePath, type FileSource } from './source.ts';
import { MARKDOWN_EXTENSIONS } from './text-documents.ts';

export type { FileFormat, PlannedFile } from './planned-file.ts';

/** The format of a document file, from its extension; null when unsupported. */
export function formatOf(path: string): FileFormat | null {
  const ext = extension(path);
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext === 'csv' || ext === 'tsv') return ext;
  if (ext === 'txt' || MARKDOWN_EXTENSIONS.includes(ext)) return 'text';
  return null;
}

/**
 * Decides the role and order of the files: a BEIR set (one file is `corpus.jsonl`) is read corpus → queries →
 * qrels whatever the input order; otherwise every file of a supported type is a document file, in input order.
 */
export function planIngestion(sources: FileSource[], qrelsSplit?: string): PlannedFile[] {
  const junk = sources.filter((s) => isJunkPath(sourcePath(s)));
  const real = sources.filter((s) => !isJunkPath(sourcePath(s)));
  const skippedJunk: PlannedFile[] = junk.map((source) => ({ source, path: sourcePath(source), kind: 'skipped' }));
  const root = findBeirRoot(real.map(sourcePath));
  if (root !== null) return [...planBeir(real, root, qrelsSplit), ...skippedJunk];
  const planned = real.map((source): PlannedFile => {
    const path = sourcePath(source);
    const format = formatOf(path);
    if (format === null) {
      const ext = extension(path);
      return { source, path, kind: 'skipped', reason: `unsupported file type${ext ? ` '.${ext}'` : ''} (expected .jsonl, .csv, .tsv, .txt, .md or .zip)` };
    }
    return { source, path, kind: 'documents', format };
  });
  return [...planned, ...skippedJunk];
}
