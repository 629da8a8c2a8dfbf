import type { EvaluateOptions } from '../eval/evaluate.ts';
import { parseTrecRun } from '../eval/run-file.ts';
import type { LineIssue, QrelsMap } from '../eval/types.ts';
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

/** Reads a TREC run file made by any system into a run of a corpus, scored against the corpus's qrels. */
export function importTrecRun(text: string, options: TrecImportOptions): TrecImportResult {
  const { run, issues } = parseTrecRun(text);
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
