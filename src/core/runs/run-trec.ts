import { formatTrecRun } from '../eval/index.ts';
import { runMapOfRecord, type RunRecord } from './run-record.ts';

/** A run name as a TREC run tag (no whitespace): spaces become underscores. */
export function runTag(name: string): string {
  return name.trim().replace(/\s+/g, '_') || 'run';
}

/** A saved run as a TREC run file, tagged with its name. */
export function exportRunTrec(record: Pick<RunRecord, 'name' | 'rankings'>): string {
  return formatTrecRun(runMapOfRecord(record), runTag(record.name));
}
