import type { IngestCollector } from './collector.ts';
import { readLines, type ReadOptions } from './lines.ts';
import type { FileSource } from './source.ts';
import type { Qrel } from './types.ts';

export type QrelsLine = ({ ok: true } & Qrel) | { ok: false; field?: string; reason: string };

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
  const relevance = Number(score);
  if (!Number.isFinite(relevance) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(score)) {
    return { ok: false, field: 'score', reason: `score '${score}' is not a number` };
  }
  return { ok: true, queryId, docId, relevance };
}

/**
 * Reads a qrels file into the collector, which rejects judgements naming unknown queries or documents (so queries
 * and the corpus must be read first). A first line whose score is not a number is taken as the header row.
 */
export async function ingestQrelsFile(source: FileSource, collector: IngestCollector, read: ReadOptions = {}): Promise<void> {
  let first = true;
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
      if (parsed.ok) collector.addQrel({ queryId: parsed.queryId, docId: parsed.docId, relevance: parsed.relevance }, line);
      else if (!(isFirst && parsed.field === 'score')) collector.reject(parsed.reason, { line, field: parsed.field });
    }
    await collector.drain();
  }
}
