// The door of corpus: reading files (JSONL, CSV, BEIR, text, zip) into documents, queries and qrels.
export { addDocument, documentsChecksum, qrelsChecksum, queriesChecksum, SetChecksum } from './content-checksum.ts';
export { type FieldMapping } from './field-mapping.ts';
export { whitespaceInId } from './ids.ts';
export { type IngestOptions, type IngestProgress, type IngestSummary } from './ingest-types.ts';
export { ingest } from './ingest.ts';
export { LineSplitter } from './lines.ts';
export { parseRelevance } from './qrels.ts';
export { readSnapshot, SnapshotError, SnapshotWriter } from './snapshot-format.ts';
export { sniffFields } from './sniff.ts';
export { type FileSource } from './source.ts';
export { decodeTextBytes, LineBreakNormalizer, TEXT_ENCODINGS, type TextEncodingChoice } from './text-decoding.ts';
export { type CorpusDocument, type CorpusQuery, type IngestIssue, type Qrel } from './types.ts';
