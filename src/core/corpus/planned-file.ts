// The plan of one input file (apart from plan.ts, so that beir.ts and plan.ts do not import each other).
import type { IngestFileSummary } from './ingest-types.ts';
import type { FileSource } from './source.ts';

/** How a file's content is read. */
export type FileFormat = 'jsonl' | 'csv' | 'tsv' | 'text';

/** One input file and what will be done with it. */
export interface PlannedFile {
  source: FileSource;
  path: string;
  kind: IngestFileSummary['kind'];
  /** Set for every file that is read. */
  format?: FileFormat;
  /** BEIR qrels split (file name without extension). */
  split?: string;
  /** Why a skipped file is not read; absent for files skipped without an issue (hidden files, unselected splits). */
  reason?: string;
}
