import { type Qrel, type TextEncodingChoice, parseRelevance } from '../corpus/index.ts';
import { fileLines, parseDecimal, splitFields } from './text-lines.ts';
import type { LineIssue } from './types.ts';

/** Judgements read from qrels text. */
export interface QrelsReadResult {
  /** Valid judgements in file order (a repeated pair appears twice; `buildQrelsMap` keeps the last). */
  qrels: Qrel[];
  /** Lines that were skipped, and repeated pairs whose relevance changed. */
  issues: LineIssue[];
}

/**
 * Reads qrels lines in either layout, fields separated by any whitespace, decided line by line:
 * 3 fields = BEIR `query-id corpus-id score`; 4 fields = TREC `qid iteration docid relevance`.
 * - Blank lines are skipped. A first non-blank line whose relevance is not a number is a header, skipped
 *   silently (BEIR's `query-id	corpus-id	score`).
 * - Any other line with another field count or a non-numeric relevance is reported and skipped.
 * - A (query, document) pair judged again with a different relevance is reported; the last judgement wins,
 *   as in BEIR and pytrec_eval. An identical repeat is not reported.
 * Accepts any iterable of lines (e.g. streamed); a trailing `\r` on a line is ignored.
 */
export function readQrelsLines(lines: Iterable<string>): QrelsReadResult {
  const qrels: Qrel[] = [];
  const issues: LineIssue[] = [];
  const seen = new Map<string, Map<string, { relevance: number; line: number }>>();
  let lineNo = 0;
  let sawContent = false;
  let header: LineIssue | undefined;
  for (const line of lines) {
    lineNo++;
    const fields = splitFields(line);
    if (fields.length === 0) continue;
    const isFirst = !sawContent;
    sawContent = true;
    let queryId: string;
    let docId: string;
    let relevanceText: string;
    if (fields.length === 3) [queryId, docId, relevanceText] = fields;
    else if (fields.length === 4) [queryId, , docId, relevanceText] = fields;
    else {
      issues.push({
        line: lineNo,
        reason: `expected 3 fields (query-id corpus-id score) or 4 (qid iteration docid relevance), found ${fields.length}`,
      });
      continue;
    }
    const parsedRelevance = parseRelevance(relevanceText);
    if (!parsedRelevance.ok) {
      if (isFirst && parseDecimal(relevanceText) === null) header = { line: lineNo, reason: parsedRelevance.reason };
      else issues.push({ line: lineNo, reason: parsedRelevance.reason });
      continue;
    }
    const relevance = parsedRelevance.value;
    let judged = seen.get(queryId);
    if (!judged) {
      judged = new Map();
      seen.set(queryId, judged);
    }
    const previous = judged.get(docId);
    if (previous !== undefined && previous.relevance !== relevance) {
      issues.push({
        line: lineNo,
        reason:
          `query '${queryId}' document '${docId}' was judged ${previous.relevance} on line ${previous.line}; ` +
          `the last judgement (${relevance}) is used`,
      });
    }
    judged.set(docId, { relevance, line: lineNo });
    qrels.push({ queryId, docId, relevance });
  }
  // A first line taken as a header is named when nothing follows it: it may be the file's only judgement.
  if (header && qrels.length === 0) issues.unshift({ line: header.line, reason: `${header.reason} (taken as a header row, and no judgement follows)` });
  return { qrels, issues };
}

/** Reads qrels from text, or from a file's bytes (decoded as every file is: see `fileLines`); see `readQrelsLines`. */
export function parseQrels(input: string | Uint8Array, encoding?: TextEncodingChoice): QrelsReadResult {
  const { lines, issues: unreadable } = fileLines(input, encoding);
  const result = readQrelsLines(lines);
  return { qrels: result.qrels, issues: [...unreadable, ...result.issues].sort((a, b) => a.line - b.line) };
}
