import type { ScoredDoc } from '../ranking/index.ts';
import type { TextEncodingChoice } from '../corpus/index.ts';
import { fileLines, parseDecimal, splitFields } from './text-lines.ts';
import type { LineIssue, RunMap } from './types.ts';

/** A run read from TREC run text. */
export interface RunReadResult {
  /** Query id → documents in file order. */
  run: RunMap;
  /** Lines that were skipped, with the reason. */
  issues: LineIssue[];
}

/**
 * Reads TREC run lines `qid Q0 docid rank score tag`, fields separated by any whitespace.
 * - Blank lines are skipped. A first non-blank line whose rank and score are both not numbers is a header
 *   and is skipped silently.
 * - A line without exactly 6 fields, or with a non-numeric rank or a non-finite score, is reported and skipped.
 *   The rank is checked but otherwise ignored (evaluation ranks by score, like trec_eval); the second and
 *   sixth fields are not interpreted.
 * - A document repeated within a query keeps its first line; the repeat is reported and skipped.
 * Accepts any iterable of lines (e.g. streamed); a trailing `\r` on a line is ignored.
 */
export function readTrecRunLines(lines: Iterable<string>): RunReadResult {
  const run: RunMap = new Map();
  const firstLine = new Map<string, Map<string, number>>();
  const issues: LineIssue[] = [];
  let lineNo = 0;
  let sawContent = false;
  for (const line of lines) {
    lineNo++;
    const fields = splitFields(line);
    if (fields.length === 0) continue;
    const isFirst = !sawContent;
    sawContent = true;
    if (fields.length !== 6) {
      issues.push({ line: lineNo, reason: `expected 6 fields (qid Q0 docid rank score tag), found ${fields.length}` });
      continue;
    }
    const [queryId, , docId, rankText, scoreText] = fields;
    const rank = parseDecimal(rankText);
    const score = parseDecimal(scoreText);
    if (isFirst && rank === null && score === null) continue;
    if (rank === null) {
      issues.push({ line: lineNo, reason: `rank '${rankText}' is not a number` });
      continue;
    }
    if (score === null) {
      issues.push({ line: lineNo, reason: `score '${scoreText}' is not a finite number` });
      continue;
    }
    let seen = firstLine.get(queryId);
    if (!seen) {
      seen = new Map();
      firstLine.set(queryId, seen);
    }
    const previous = seen.get(docId);
    if (previous !== undefined) {
      issues.push({
        line: lineNo,
        reason: `document '${docId}' repeated for query '${queryId}' (first on line ${previous}); the first is kept`,
      });
      continue;
    }
    seen.set(docId, lineNo);
    let docs: ScoredDoc[] | undefined = run.get(queryId);
    if (!docs) {
      docs = [];
      run.set(queryId, docs);
    }
    docs.push({ id: docId, score });
  }
  return { run, issues };
}

/** Reads a TREC run from text, or from a file's bytes (decoded as every file is: see `fileLines`); see `readTrecRunLines`. */
export function parseTrecRun(input: string | Uint8Array, encoding?: TextEncodingChoice): RunReadResult {
  const { lines, issues: unreadable } = fileLines(input, encoding);
  const result = readTrecRunLines(lines);
  return { run: result.run, issues: [...unreadable, ...result.issues].sort((a, b) => a.line - b.line) };
}

/**
 * Writes a run as TREC run text: one line `qid Q0 docid rank score tag` per document, space-separated,
 * queries in map order, documents in list order with ranks 1..n, scores in JavaScript's shortest exact
 * (round-trip) form. The list order is written as is: sort it by score first if it is not already, since
 * trec_eval re-ranks by score. Throws on an empty id or tag, whitespace inside one, or a non-finite score.
 */
export function formatTrecRun(run: RunMap, tag: string): string {
  checkToken(tag, 'run tag');
  const out: string[] = [];
  for (const [queryId, docs] of run) {
    checkToken(queryId, 'query id');
    docs.forEach((doc, i) => {
      checkToken(doc.id, 'document id');
      if (!Number.isFinite(doc.score)) {
        throw new Error(`cannot write score ${doc.score} of document '${doc.id}' for query '${queryId}'`);
      }
      out.push(`${queryId} Q0 ${doc.id} ${i + 1} ${String(doc.score)} ${tag}\n`);
    });
  }
  return out.join('');
}

function checkToken(value: string, what: string): void {
  if (value === '' || /\s/.test(value)) {
    throw new Error(`cannot write ${what} '${value}' in a TREC run: it must be non-empty and contain no whitespace`);
  }
}
