import type { IngestCollector } from './collector.ts';
import { trimmedIdNotice } from './ids.ts';
import { applyFieldMapping, explainNoGuess, guessFieldMapping, recordFieldPaths, type FieldMapping } from './field-mapping.ts';

/** One record of a JSONL or CSV/TSV file: parsed, or rejected by the parser (kept in line order with the others). */
export type SourceRecord = ParsedRecord | RejectedRecord;

export interface ParsedRecord {
  /** 1-based line of the record's first line. */
  line: number;
  record: Record<string, unknown>;
}

export interface RejectedRecord {
  /** 1-based line of the record's first line. */
  line: number;
  /** Why the record could not be read. */
  error: string;
}

export function isRejected(item: SourceRecord): item is RejectedRecord {
  return 'error' in item;
}

/** Parsed records examined for a guessed mapping before a file is given up. */
export const GUESS_RECORDS = 100;

/**
 * Turns records into documents through a field mapping. Without one, the mapping is guessed from the first record
 * whose fields allow it (parsed records before it wait, and are then mapped the same way); a file where none of
 * the first GUESS_RECORDS parsed records allows a guess is abandoned with one issue. `keepEmptyText` keeps documents
 * whose text is empty.
 */
export async function ingestRecordDocuments(
  records: AsyncIterable<SourceRecord[]>,
  mapping: FieldMapping | undefined,
  collector: IngestCollector,
  keepEmptyText = false,
): Promise<void> {
  let active = mapping;
  const waiting: ParsedRecord[] = [];
  const seenFields = new Set<string>();
  let anyRecord = false;
  const take = ({ line, record }: ParsedRecord, use: FieldMapping) => {
    const mapped = applyFieldMapping(record, use, keepEmptyText);
    if (mapped.ok) {
      const added = collector.addDocument(mapped.value, { line, field: use.id });
      if (added && mapped.untrimmedId !== undefined) collector.notice(trimmedIdNotice('document id', mapped.untrimmedId, mapped.value.id), { line, field: use.id });
    } else collector.reject(mapped.reason, { line, field: mapped.field });
  };
  for await (const group of records) {
    for (const item of group) {
      anyRecord = true;
      if (isRejected(item)) collector.reject(item.error, { line: item.line });
      else if (active) take(item, active);
      else {
        waiting.push(item);
        const fields = recordFieldPaths(item.record);
        fields.forEach((f) => seenFields.add(f));
        active = guessFieldMapping(fields) ?? undefined;
        if (active) for (const held of waiting.splice(0)) take(held, active);
        else if (waiting.length >= GUESS_RECORDS) break;
      }
    }
    if (!active && waiting.length >= GUESS_RECORDS) break;
    await collector.drain();
  }
  if (waiting.length > 0) collector.fileIssue(explainNoGuess([...seenFields]));
  else if (!anyRecord) collector.fileIssue('the file holds no records (it is empty or blank)');
}
