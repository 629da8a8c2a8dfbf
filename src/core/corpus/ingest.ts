import { isAbortError, throwIfAborted } from '../abort/index.ts';
import { IngestCollector } from './collector.ts';
import { readCsvRecords } from './csv.ts';
import type { IngestHandlers, IngestOptions, IngestSummary } from './ingest-types.ts';
import { readJsonlRecords } from './jsonl.ts';
import type { ReadOptions } from './lines.ts';
import { planIngestion, type PlannedFile } from './plan.ts';
import { ingestQrelsFile } from './qrels.ts';
import { ingestQueryRecords } from './queries.ts';
import { ingestRecordDocuments } from './records.ts';
import { extension, sourcePath, type FileSource } from './source.ts';
import { TEXT_ENCODINGS } from './text-decoding.ts';
import { ingestTextFile } from './text-documents.ts';
import { validatePassageOptions } from './text-passages.ts';
import { expandZip } from './zip.ts';

export type {
  IngestBatch,
  IngestFileSummary,
  IngestHandlers,
  IngestOptions,
  IngestProgress,
  IngestSummary,
  PassageOptions,
} from './ingest-types.ts';
export type { FieldMapping } from './field-mapping.ts';
export type { TextEncodingChoice } from './text-decoding.ts';
export { sniffFields } from './sniff.ts';

export const DEFAULT_BATCH_SIZE = 500;

/**
 * Streams files into batches of documents, queries and qrels. Accepts a BEIR folder (as files, or a zip holding
 * one), JSONL / CSV / TSV document files with a field mapping, and plain-text / Markdown files. Bad records become
 * issues and are skipped; a file that cannot be read becomes an issue and the others are still read. Rejects with
 * an `AbortError` when `signal` aborts, with a RangeError for invalid options, and with whatever a handler throws.
 */
export async function ingest(
  sources: FileSource[],
  options: IngestOptions,
  handlers: IngestHandlers,
  signal?: AbortSignal,
): Promise<IngestSummary> {
  validateOptions(options);
  throwIfAborted(signal);
  const collector = new IngestCollector(handlers, options.batchSize ?? DEFAULT_BATCH_SIZE, signal);
  const read: ReadOptions = { signal, onBytes: (n) => collector.addBytes(n), encoding: options.encoding };
  const isFatal = (error: unknown) => signal?.aborted || isAbortError(error) || (collector.handlerError !== undefined && error === collector.handlerError);

  const files: FileSource[] = [];
  const expand = async (source: FileSource): Promise<void> => {
    if (extension(sourcePath(source)) !== 'zip') {
      files.push(source);
      return;
    }
    let entries: FileSource[];
    try {
      entries = await expandZip(source, signal);
    } catch (error) {
      if (isFatal(error)) throw error;
      collector.skipFile(sourcePath(source), `unreadable zip archive: ${message(error)}`);
      return;
    }
    if (entries.length === 0) collector.skipFile(sourcePath(source), 'no files found in the zip archive (is it a zip file?)');
    for (const entry of entries) await expand(entry);
  };
  for (const source of sources) await expand(source);

  const plan = planIngestion(files, options.qrelsSplit);
  collector.bytesTotal = plan.reduce((sum, f) => sum + (f.format ? f.source.size : 0), 0);
  for (const file of plan) {
    if (!file.format) {
      collector.skipFile(file.path, file.reason, file.split);
      continue;
    }
    collector.beginFile(file.path, file.kind, file.split);
    try {
      await ingestFile(file, options, collector, read);
    } catch (error) {
      if (isFatal(error)) throw error;
      collector.fileIssue(`could not read the file: ${message(error)}`);
    }
    await collector.drain();
    collector.endFile();
  }
  await collector.finish();
  return collector.summary();
}

async function ingestFile(file: PlannedFile, options: IngestOptions, collector: IngestCollector, read: ReadOptions): Promise<void> {
  if (file.kind === 'qrels') return ingestQrelsFile(file.source, collector, read);
  if (file.kind === 'queries') return ingestQueryRecords(readJsonlRecords(file.source, read), collector);
  switch (file.format) {
    case 'jsonl':
      return ingestRecordDocuments(readJsonlRecords(file.source, read), options.mapping, collector, options.keepEmptyDocuments);
    case 'csv':
      return ingestRecordDocuments(readCsvRecords(file.source, {}, read), options.mapping, collector, options.keepEmptyDocuments);
    case 'tsv':
      return ingestRecordDocuments(readCsvRecords(file.source, { delimiter: '\t' }, read), options.mapping, collector, options.keepEmptyDocuments);
    case 'text':
      return ingestTextFile(file.source, file.path, options.passages, collector, read);
  }
}

function validateOptions(options: IngestOptions): void {
  if (options.passages) validatePassageOptions(options.passages);
  const { batchSize, mapping } = options;
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1)) {
    throw new RangeError(`batchSize must be a whole number >= 1, not ${batchSize}`);
  }
  if (mapping && (!mapping.id || !mapping.text)) throw new RangeError('mapping.id and mapping.text must name a field');
  if (options.encoding !== undefined && !TEXT_ENCODINGS.includes(options.encoding)) {
    throw new RangeError(`encoding must be one of ${TEXT_ENCODINGS.join(', ')}, not '${String(options.encoding)}'`);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
