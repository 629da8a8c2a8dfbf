import type { FieldMapping } from './field-mapping.ts';
import type { TextEncodingChoice } from './text-decoding.ts';
import type { CorpusDocument, CorpusQuery, IngestIssue, Qrel } from './types.ts';

/** How plain .txt / .md files become documents. */
export interface PassageOptions {
  /** `whole`: one document per file; `split`: passages of `size` words, consecutive passages sharing `overlap` words. */
  mode: 'whole' | 'split';
  /** Words per passage (split mode); an integer >= 1. */
  size: number;
  /** Words shared by consecutive passages (split mode); an integer >= 0 and < size. */
  overlap: number;
}

export interface IngestOptions {
  /** Field mapping for documents in JSONL/CSV/TSV files (and a BEIR corpus.jsonl); guessed per file when absent. */
  mapping?: FieldMapping;
  /** How .txt / .md files are turned into documents; default one document per file. */
  passages?: PassageOptions;
  /** BEIR qrels split to load (`test` for qrels/test.tsv); default `test` if present, else every split. */
  qrelsSplit?: string;
  /** Encoding of files without a byte-order mark (a BOM always wins); default UTF-8. */
  encoding?: TextEncodingChoice;
  /**
   * Keep documents whose text is empty (Cranfield's 471 and 995, for one) instead of skipping them, so the
   * judgements of them stay and the qrels match the official files; default false (skipped and listed).
   */
  keepEmptyDocuments?: boolean;
  /** documents per batch handed to onBatch, default 500 */
  batchSize?: number;
}

/** Records handed to storage; each list holds at most `batchSize` entries. */
export interface IngestBatch {
  /** Documents accepted since the previous batch. */
  documents: CorpusDocument[];
  /** Queries accepted since the previous batch. */
  queries: CorpusQuery[];
  /** Qrels accepted since the previous batch (their query and document are in this or an earlier batch). */
  qrels: Qrel[];
}

export interface IngestProgress {
  /** Path of the file being read. */
  file: string;
  /** Bytes read so far over all files (decompressed bytes for zip entries). */
  bytesDone: number;
  /** Bytes to read over all files; may grow when a zip entry's size is unknown in advance. */
  bytesTotal: number;
  /** Documents accepted so far. */
  documents: number;
  /** Queries accepted so far. */
  queries: number;
  /** Qrels accepted so far. */
  qrels: number;
  /** Problems found so far. */
  issueCount: number;
}

/** What happened to one input file. */
export interface IngestFileSummary {
  /** The file's path ('/'-separated; for a zip entry, its path inside the archive). */
  path: string;
  /** `corpus`/`queries`/`qrels`: parts of a BEIR folder; `documents`: any other document file; `skipped`: not read. */
  kind: 'corpus' | 'queries' | 'qrels' | 'documents' | 'skipped';
  /** Records accepted. */
  records: number;
  /** Records (lines, rows, files) rejected with an issue. */
  skipped: number;
  /** For BEIR qrels files: the split, from the file name (`qrels/test.tsv` → `test`). */
  split?: string;
}

export interface IngestSummary {
  /** Documents accepted. */
  documents: number;
  /** Queries accepted. */
  queries: number;
  /** Qrels accepted. */
  qrels: number;
  /** The first 1,000 problems found. */
  issues: IngestIssue[];
  /** All problems found, including those beyond the stored 1,000. */
  issueCount: number;
  /** Every input file (zip entries instead of the zip), in the order they were processed. */
  files: IngestFileSummary[];
}

export interface IngestHandlers {
  /** awaited: gives backpressure to storage */
  onBatch(batch: IngestBatch): Promise<void> | void;
  /** Called at most every ~100 ms, and at the end of each file. */
  onProgress?(p: IngestProgress): void;
}
