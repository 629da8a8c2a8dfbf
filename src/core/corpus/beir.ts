import type { PlannedFile } from './planned-file.ts';
import { basename, dirname, extension, sourcePath, stem, type FileSource } from './source.ts';

/** The split read when none is asked for, if present. */
export const DEFAULT_QRELS_SPLIT = 'test';
const QRELS_EXTENSIONS = ['tsv', 'txt'];

/** The folder holding `corpus.jsonl` ('' at top level; the shallowest one if several), or null for a non-BEIR set. */
export function findBeirRoot(paths: string[]): string | null {
  let root: string | null = null;
  for (const path of paths) {
    if (basename(path) !== 'corpus.jsonl') continue;
    const dir = dirname(path);
    if (root === null || depth(dir) < depth(root)) root = dir;
  }
  return root;
}

/**
 * Plans a BEIR folder: `corpus.jsonl`, then `queries.jsonl`, then the qrels files (`qrels/<split>.tsv`, or a
 * `<split>.tsv` beside corpus.jsonl) of the chosen
 * split (`qrelsSplit`; default `test` if present, else all). Any other file is skipped with an issue.
 */
export function planBeir(sources: FileSource[], root: string, qrelsSplit?: string): PlannedFile[] {
  const prefix = root === '' ? '' : `${root}/`;
  const at = (path: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : null);
  let corpus: PlannedFile | undefined;
  let queries: PlannedFile | undefined;
  const qrels: PlannedFile[] = [];
  const skipped: PlannedFile[] = [];
  for (const source of sources) {
    const path = sourcePath(source);
    const inside = at(path);
    if (inside === 'corpus.jsonl' && !corpus) corpus = { source, path, kind: 'corpus', format: 'jsonl' };
    else if (inside === 'queries.jsonl' && !queries) queries = { source, path, kind: 'queries', format: 'jsonl' };
    else if (inside !== null && isQrelsPath(inside)) {
      qrels.push({ source, path, kind: 'qrels', split: stem(path) });
    } else if (isDocumentation(path)) {
      // A README or licence beside the data is expected in a BEIR folder: listed as skipped, not a problem.
      skipped.push({ source, path, kind: 'skipped' });
    } else {
      const reason =
        basename(path) === 'corpus.jsonl'
          ? `another BEIR corpus: one BEIR folder is loaded at a time (this one: ${root || 'the top level'})`
          : `not part of the BEIR layout (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) of ${root || 'the top level'}`;
      skipped.push({ source, path, kind: 'skipped', reason });
    }
  }
  qrels.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return [corpus!, ...(queries ? [queries] : []), ...chooseQrels(qrels, qrelsSplit, queries !== undefined), ...skipped];
}

function chooseQrels(qrels: PlannedFile[], asked: string | undefined, hasQueries: boolean): PlannedFile[] {
  if (!hasQueries) return qrels.map((q) => ({ ...q, kind: 'skipped', reason: 'no queries.jsonl in the BEIR folder to match the qrels against' }));
  const splits = qrels.map((q) => q.split!);
  const wanted = asked ?? (splits.includes(DEFAULT_QRELS_SPLIT) ? DEFAULT_QRELS_SPLIT : undefined);
  if (wanted === undefined) return qrels.map((q) => ({ ...q, format: 'tsv' }));
  if (!splits.includes(wanted)) {
    const reason = `qrels split '${wanted}' not found (available: ${splits.join(', ')})`;
    return qrels.map((q) => ({ ...q, kind: 'skipped', reason }));
  }
  return qrels.map((q): PlannedFile => (q.split === wanted ? { ...q, format: 'tsv' } : { ...q, kind: 'skipped' }));
}

/**
 * A qrels file of the BEIR folder: `qrels/<split>.tsv|.txt`, or, beside corpus.jsonl (as when files are picked
 * one by one and lose their folders), any `.tsv` file or a `.txt` file named like qrels.
 */
function isQrelsPath(inside: string): boolean {
  const ext = extension(inside);
  if (/^qrels\/[^/]+$/.test(inside)) return QRELS_EXTENSIONS.includes(ext);
  if (inside.includes('/')) return false;
  return ext === 'tsv' || (ext === 'txt' && /qrels/i.test(inside));
}

function isDocumentation(path: string): boolean {
  return /^(readme|license|licence|notice|citation)(\.(md|txt|rst|cff))?$/i.test(basename(path));
}

function depth(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}
