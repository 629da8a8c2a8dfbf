import type { IngestCollector } from './collector.ts';
import { trimmedIdNotice } from './ids.ts';
import { applyFieldMapping, type FieldMapping } from './field-mapping.ts';
import { isRejected, type SourceRecord } from './records.ts';
import type { CorpusQuery } from './types.ts';

/** BEIR queries.jsonl fields. */
export const QUERY_MAPPING: FieldMapping = { id: '_id', text: 'text' };

/** Turns BEIR query records (`_id`, `text`, optional `answers`, other fields → metadata) into queries. */
export async function ingestQueryRecords(records: AsyncIterable<SourceRecord[]>, collector: IngestCollector): Promise<void> {
  for await (const group of records) {
    for (const item of group) {
      if (isRejected(item)) {
        collector.reject(item.error, { line: item.line });
        continue;
      }
      const { line, record } = item;
      const mapped = applyFieldMapping(record, QUERY_MAPPING);
      if (!mapped.ok) {
        collector.reject(mapped.reason.replace('empty text', 'empty query text'), { line, field: mapped.field });
        continue;
      }
      const { id, text } = mapped.value;
      const query: CorpusQuery = { id, text };
      const { answers, ...metadata } = mapped.value.metadata ?? {};
      const answerList = toAnswers(answers);
      if (answerList) query.answers = answerList;
      else if (answers !== undefined) metadata.answers = answers;
      if (Object.keys(metadata).length > 0) query.metadata = metadata;
      const added = collector.addQuery(query, { line, field: QUERY_MAPPING.id });
      if (added && mapped.untrimmedId !== undefined) collector.notice(trimmedIdNotice('query id', mapped.untrimmedId, id), { line, field: QUERY_MAPPING.id });
    }
    await collector.drain();
  }
}

/** `answers` as a string list: a list of strings/numbers, or one string; undefined for anything else. */
function toAnswers(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return undefined;
  if (!value.every((a) => typeof a === 'string' || typeof a === 'number')) return undefined;
  return value.map(String);
}
