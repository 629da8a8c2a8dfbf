import type { IngestCollector, IssueLocation } from './collector.ts';
import { applyFieldMapping, explainNoGuess, guessFieldMapping, recordFieldPaths, type FieldMapping } from './field-mapping.ts';

/** One parsed record of a JSONL or CSV/TSV file. */
export interface SourceRecord {
  /** 1-based line of the record's first line. */
  line: number;
  record: Record<string, unknown>;
}

/** Receives a rejected record's issue. */
export type RejectRecord = (reason: string, at: IssueLocation) => void;

/**
 * Turns records into documents through a field mapping (guessed from the first record when absent). A record that
 * cannot be mapped becomes an issue; a file whose mapping cannot be guessed is abandoned with one issue.
 */
export async function ingestRecordDocuments(
  records: AsyncIterable<SourceRecord[]>,
  mapping: FieldMapping | undefined,
  collector: IngestCollector,
): Promise<void> {
  let active = mapping;
  for await (const group of records) {
    for (const { line, record } of group) {
      if (!active) {
        const fields = recordFieldPaths(record);
        const guessed = guessFieldMapping(fields);
        if (!guessed) {
          collector.fileIssue(explainNoGuess(fields));
          return;
        }
        active = guessed;
      }
      const mapped = applyFieldMapping(record, active);
      if (mapped.ok) collector.addDocument(mapped.value, { line, field: active.id });
      else collector.reject(mapped.reason, { line, field: mapped.field });
    }
    await collector.drain();
  }
}
