import type { IngestCollector } from './collector.ts';
import { readLines, type ReadOptions } from './lines.ts';
import type { FileSource } from './source.ts';
import type { Qrel } from './types.ts';

export type QrelsLine = ({ ok: true } & Qrel) | { ok: false; field?: string; reason: string };

/** The largest grade accepted either way: gains grow as 2^grade in nDCG, and 1e308 overflowed every measure. */
export const MAX_RELEVANCE = 1000;

/** A relevance grade as written in a qrels file (a plain decimal within ±MAX_RELEVANCE), or why it is not one. */
export function parseRelevance(text: string): { ok: true; value: number } | { ok: false; reason: string } {
  const value = Number(text);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(value)) return { ok: false, reason: `relevance '${text}' is not a number` };
  if (Math.abs(value) > MAX_RELEVANCE) return { ok: false, reason: `relevance '${text}' is out of range: grades go from -${MAX_RELEVANCE} to ${MAX_RELEVANCE}` };
  return { ok: true, value };
}

/**
 * Reads one qrels line, columns separated by any whitespace: `query-id corpus-id score` (BEIR) or
 * `query-id iteration corpus-id relevance` (TREC). Null for a blank line.
 */
export function parseQrelsLine(text: string): QrelsLine | null {
  const columns = text.trim().split(/\s+/);
  if (columns.length === 1 && columns[0] === '') return null;
  if (columns.length < 3) {
    return { ok: false, reason: `too few columns: ${columns.length} (expected query-id, corpus-id, score)` };
  }
  if (columns.length > 4) {
    return { ok: false, reason: `too many columns: ${columns.length} (expected 3, or 4 in TREC layout)` };
  }
  const [queryId, docId, score] = columns.length === 3 ? columns : [columns[0], columns[2], columns[3]];
  const relevance = parseRelevance(score);
  if (!relevance.ok) return { ok: false, field: 'score', reason: relevance.reason.replace('relevance', 'score') };
  return { ok: true, queryId, docId, relevance: relevance.value };
}

/**
 * Reads a qrels file into the collector, which rejects judgements naming unknown queries or documents (so queries
 * and the corpus must be read first). A first line whose score is not a number is taken as the header row; when no
 * judgement follows it, that line is reported with its reason.
 */
export async function ingestQrelsFile(source: FileSource, collector: IngestCollector, read: ReadOptions = {}): Promise<void> {
  let first = true;
  let header: { line: number; reason: string } | undefined;
  let judgements = 0;
  for await (const lines of readLines(source, { ...read, skipEmpty: true })) {
    for (const { text, line, problem } of lines) {
      if (problem !== undefined) {
        collector.reject(problem, { line });
        continue;
      }
      const parsed = parseQrelsLine(text);
      if (parsed === null) continue;
      const isFirst = first;
      first = false;
      if (parsed.ok) {
        judgements++;
        collector.addQrel({ queryId: parsed.queryId, docId: parsed.docId, relevance: parsed.relevance }, line);
      } else if (isFirst && parsed.field === 'score' && /not a number/.test(parsed.reason)) header = { line, reason: parsed.reason };
      else collector.reject(parsed.reason, { line, field: parsed.field });
    }
    await collector.drain();
  }
  if (header && judgements === 0) collector.reject(`${header.reason} (taken as a header row, and no judgement follows)`, { line: header.line, field: 'score' });
}
