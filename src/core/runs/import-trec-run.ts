import type { TextEncodingChoice } from '../corpus/index.ts';
import { type EvaluateOptions, parseTrecRun, type LineIssue, type QrelsMap } from '../eval/index.ts';
import { buildRunRecord, type RunRecord } from './run-record.ts';

/** Where an imported TREC run goes and how it is scored. */
export interface TrecImportOptions {
  /** Name of the file (kept in the run's pipeline). */
  fileName: string;
  /** Run name; default the file name without its extension. */
  name?: string;
  corpusId: string;
  corpusName: string;
  /** Ids of the corpus's queries; ids of the file outside these and the qrels are reported. */
  queryIds: readonly string[];
  /** The corpus's judgements, to score the run. */
  qrels: QrelsMap | null;
  /** Measures to score; default DEFAULT_MEASURES. */
  measures?: readonly string[];
  evaluate?: EvaluateOptions;
  /** Encoding of a file without a byte-order mark; default UTF-8. */
  encoding?: TextEncodingChoice;
}

/** An imported run with what the user should know about the file. */
export interface TrecImportResult {
  record: RunRecord;
  /** Lines that were skipped (malformed), with line numbers. */
  issues: LineIssue[];
  /** Query ids of the file that the corpus does not know (their rankings are kept but never scored). */
  unknownQueryIds: string[];
  /** Queries of the corpus that the file has no ranking for (they score 0 where judged). */
  missingQueryCount: number;
}

/** The lines of a TREC run file that could not be read: the whole file is unusable. */
export class TrecImportError extends Error {
  constructor(
    message: string,
    /** The skipped lines. */
    readonly issues: LineIssue[],
  ) {
    super(message);
    this.name = 'TrecImportError';
  }
}

/**
 * Reads a TREC run file made by any system into a run of a corpus, scored against the corpus's qrels. Bytes are
 * decoded as every file is (BOM → UTF-8/UTF-16, invalid UTF-8 lines reported); a binary file throws a BinaryFileError.
 */
export function importTrecRun(input: string | Uint8Array, options: TrecImportOptions): TrecImportResult {
  const { run, issues } = parseTrecRun(input, options.encoding);
  if (run.size === 0) {
    const detail = issues.length > 0 ? `; ${issues.length} line(s) could not be read, the first: line ${issues[0]!.line}: ${issues[0]!.reason}` : '';
    throw new TrecImportError(`No ranking could be read from ${options.fileName}${detail}`, issues);
  }
  const known = new Set(options.queryIds);
  for (const queryId of options.qrels?.keys() ?? []) known.add(queryId);
  const unknownQueryIds = [...run.keys()].filter((q) => !known.has(q));
  const missingQueryCount = options.queryIds.filter((q) => !run.has(q)).length;
  const record = buildRunRecord({
    name: options.name?.trim() || options.fileName.replace(/\.[^.]*$/, '') || options.fileName,
    corpusId: options.corpusId,
    corpusName: options.corpusName,
    pipeline: { kind: 'imported', fileName: options.fileName },
    run,
    qrels: options.qrels,
    measures: options.measures,
    evaluate: options.evaluate,
    notes: `Imported from ${options.fileName}`,
  });
  return { record, issues, unknownQueryIds, missingQueryCount };
}

/** Document ids of an imported run that the corpus does not hold. */
export interface UnknownDocuments {
  /** Distinct unknown ids. */
  count: number;
  /** Results (query, document lines) that name them. */
  results: number;
  /** The first few, in file order. */
  examples: string[];
}

const LOOKUP_BATCH = 1000;
const UNKNOWN_EXAMPLES = 20;

/**
 * Finds the document ids of a run that are not in the corpus. `exists` answers, for a batch of ids, whether
 * each is a document of the corpus (e.g. from the store's getDocuments).
 */
export async function findUnknownDocuments(
  record: Pick<RunRecord, 'rankings'>,
  exists: (ids: readonly string[]) => Promise<readonly boolean[]>,
): Promise<UnknownDocuments> {
  const uses = new Map<string, number>();
  for (const { docIds } of record.rankings) for (const id of docIds) uses.set(id, (uses.get(id) ?? 0) + 1);
  const ids = [...uses.keys()];
  const unknown: string[] = [];
  for (let at = 0; at < ids.length; at += LOOKUP_BATCH) {
    const batch = ids.slice(at, at + LOOKUP_BATCH);
    const found = await exists(batch);
    batch.forEach((id, i) => {
      if (!found[i]) unknown.push(id);
    });
  }
  return { count: unknown.length, results: unknown.reduce((n, id) => n + uses.get(id)!, 0), examples: unknown.slice(0, UNKNOWN_EXAMPLES) };
}
