import { throwIfAborted } from '../abort/index.ts';
import type { IngestFileSummary, IngestHandlers, IngestSummary } from './ingest-types.ts';
import { whitespaceInId } from './ids.ts';
import { boundMetadata } from './metadata-limits.ts';
import type { CorpusDocument, CorpusQuery, IngestIssue, Qrel } from './types.ts';

/** Issues kept in the summary; the rest are only counted. */
export const MAX_STORED_ISSUES = 1000;
const PROGRESS_INTERVAL_MS = 100;

/** Where a record was first seen, for duplicate messages. */
interface Origin {
  file: string;
  line?: number;
}

/** The line and field an issue points at. */
export interface IssueLocation {
  line?: number;
  field?: string;
}

/**
 * Collects what the format readers produce: checks id uniqueness and qrels references, keeps the issue list and the
 * per-file counts, and hands full batches to storage (awaited, so storage sets the pace).
 */
export class IngestCollector {
  readonly issues: IngestIssue[] = [];
  issueCount = 0;
  readonly files: IngestFileSummary[] = [];
  documents = 0;
  queries = 0;
  qrels = 0;
  bytesDone = 0;
  bytesTotal = 0;
  /** The error a handler threw, if any: it ends the ingestion rather than becoming an issue. */
  handlerError: unknown = undefined;

  private readonly handlers: IngestHandlers;
  private readonly batchSize: number;
  private readonly signal: AbortSignal | undefined;
  private current: IngestFileSummary = { path: '', kind: 'skipped', records: 0, skipped: 0 };
  private readonly documentOrigins = new Map<string, Origin>();
  private readonly queryOrigins = new Map<string, Origin>();
  private pendingDocuments: CorpusDocument[] = [];
  private pendingQueries: CorpusQuery[] = [];
  private pendingQrels: Qrel[] = [];
  private lastProgressAt = -Infinity;

  constructor(handlers: IngestHandlers, batchSize: number, signal?: AbortSignal) {
    this.handlers = handlers;
    this.batchSize = batchSize;
    this.signal = signal;
  }

  /** The file being read now: later records and issues are attributed to it. */
  beginFile(path: string, kind: IngestFileSummary['kind'], split?: string): void {
    this.current = { path, kind, records: 0, skipped: 0, ...(split === undefined ? {} : { split }) };
    this.files.push(this.current);
  }

  /** Lists a file that is not read, with an issue when `reason` is given. */
  skipFile(path: string, reason?: string, split?: string): void {
    this.files.push({ path, kind: 'skipped', records: 0, skipped: 0, ...(split === undefined ? {} : { split }) });
    if (reason !== undefined) this.addIssue({ file: path, reason });
  }

  /** A record of the current file is rejected. */
  reject(reason: string, at: IssueLocation = {}): void {
    this.current.skipped++;
    this.addIssue({ file: this.current.path, ...at, reason });
  }

  /** A problem with a whole file (or with a file in general), not tied to one record. */
  fileIssue(reason: string, file = this.current.path): void {
    this.addIssue({ file, reason });
  }

  /** Reports something changed in a record that was kept (e.g. an id trimmed), at its file, line and field. */
  notice(reason: string, at: IssueLocation): void {
    this.addIssue({ file: this.current.path, ...(at.line === undefined ? {} : { line: at.line }), ...(at.field === undefined ? {} : { field: at.field }), reason });
  }

  /** Accepts a document unless its id was seen before or holds whitespace; `at.field` names the id field for the duplicate issue. */
  addDocument(doc: CorpusDocument, at: IssueLocation = {}): boolean {
    if (!this.claimId(this.documentOrigins, 'document', doc.id, at)) return false;
    this.pendingDocuments.push(this.withBoundedMetadata(doc, at));
    this.documents++;
    this.current.records++;
    return true;
  }

  /** Accepts a query unless its id was seen before. */
  addQuery(query: CorpusQuery, at: IssueLocation = {}): boolean {
    if (!this.claimId(this.queryOrigins, 'query', query.id, at)) return false;
    this.pendingQueries.push(this.withBoundedMetadata(query, at));
    this.queries++;
    this.current.records++;
    return true;
  }

  private readonly judgements = new Map<string, Map<string, { relevance: number; file: string; line?: number }>>();

  /** Accepts a judgement whose query and document were accepted earlier. */
  addQrel(qrel: Qrel, line?: number): boolean {
    if (!this.queryOrigins.has(qrel.queryId)) {
      this.reject(`unknown query id '${qrel.queryId}'`, { line, field: 'query-id' });
      return false;
    }
    if (!this.documentOrigins.has(qrel.docId)) {
      this.reject(`unknown document id '${qrel.docId}'`, { line, field: 'corpus-id' });
      return false;
    }
    // One (query, document) pair judged twice: an identical repeat is kept once; a different grade is reported and,
    // as in dsw eval, BEIR and pytrec_eval, the last judgement is the one used.
    let judged = this.judgements.get(qrel.queryId);
    if (!judged) this.judgements.set(qrel.queryId, (judged = new Map()));
    const previous = judged.get(qrel.docId);
    judged.set(qrel.docId, { relevance: qrel.relevance, file: this.current.path, line });
    if (previous !== undefined) {
      if (previous.relevance === qrel.relevance) return false;
      const where = previous.file === this.current.path ? `line ${previous.line}` : `line ${previous.line} of ${previous.file}`;
      this.notice(`query '${qrel.queryId}' document '${qrel.docId}' was judged ${previous.relevance} on ${where}; the last judgement (${qrel.relevance}) is used`, { line, field: 'score' });
    }
    this.pendingQrels.push(qrel);
    this.qrels++;
    this.current.records++;
    return true;
  }

  addBytes(bytes: number): void {
    this.bytesDone += bytes;
  }

  /** Hands every full batch to storage and reports progress if due; call after each chunk of input. */
  async drain(): Promise<void> {
    throwIfAborted(this.signal);
    while (this.isBatchFull()) await this.emitBatch();
    if (Date.now() - this.lastProgressAt >= PROGRESS_INTERVAL_MS) this.reportProgress();
  }

  /** Reports progress at the end of a file. */
  endFile(): void {
    this.reportProgress();
  }

  /** Hands everything still pending to storage. */
  async finish(): Promise<void> {
    throwIfAborted(this.signal);
    while (this.pendingDocuments.length + this.pendingQueries.length + this.pendingQrels.length > 0) await this.emitBatch();
  }

  summary(): IngestSummary {
    return {
      documents: this.documents,
      queries: this.queries,
      qrels: this.qrels,
      issues: this.issues,
      issueCount: this.issueCount,
      files: this.files,
    };
  }

  /** The record with its metadata within the limits of metadata-limits.ts; each dropped field is reported. */
  private withBoundedMetadata<T extends { metadata?: Record<string, unknown> }>(record: T, at: IssueLocation): T {
    if (!record.metadata) return record;
    const { metadata, dropped } = boundMetadata(record.metadata);
    if (dropped.length === 0) return record;
    for (const { field, reason } of dropped) this.addIssue({ file: this.current.path, ...(at.line === undefined ? {} : { line: at.line }), field, reason });
    const { metadata: _old, ...rest } = record;
    return (metadata ? { ...rest, metadata } : rest) as T;
  }

  /** Claims an id for its record: an id with whitespace (unwritable in TREC files) or a repeated id is rejected. */
  private claimId(origins: Map<string, Origin>, what: string, id: string, at: IssueLocation): boolean {
    const unusable = whitespaceInId(id, `${what} id`);
    if (unusable !== null) {
      this.reject(`${unusable}: the record is skipped (fix the id, or map another id field)`, at);
      return false;
    }
    const first = origins.get(id);
    if (first !== undefined) {
      const where = first.file === this.current.path ? '' : ` of ${first.file}`;
      const firstAt = first.line === undefined ? `first seen in ${first.file}` : `first seen on line ${first.line}${where}`;
      this.reject(`duplicate ${what} id '${id}' (${firstAt}; the first is kept)`, at);
      return false;
    }
    origins.set(id, at.line === undefined ? { file: this.current.path } : { file: this.current.path, line: at.line });
    return true;
  }

  private addIssue(issue: IngestIssue): void {
    this.issueCount++;
    if (this.issues.length < MAX_STORED_ISSUES) this.issues.push(issue);
  }

  private isBatchFull(): boolean {
    const n = this.batchSize;
    return this.pendingDocuments.length >= n || this.pendingQueries.length >= n || this.pendingQrels.length >= n;
  }

  private async emitBatch(): Promise<void> {
    const n = this.batchSize;
    const batch = {
      documents: take(this.pendingDocuments, n),
      queries: take(this.pendingQueries, n),
      qrels: take(this.pendingQrels, n),
    };
    this.pendingDocuments = this.pendingDocuments.slice(batch.documents.length);
    this.pendingQueries = this.pendingQueries.slice(batch.queries.length);
    this.pendingQrels = this.pendingQrels.slice(batch.qrels.length);
    try {
      await this.handlers.onBatch(batch);
    } catch (error) {
      this.handlerError = error;
      throw error;
    }
    throwIfAborted(this.signal);
    this.reportProgress();
  }

  private reportProgress(): void {
    this.lastProgressAt = Date.now();
    if (!this.handlers.onProgress) return;
    this.bytesTotal = Math.max(this.bytesTotal, this.bytesDone);
    try {
      this.handlers.onProgress({
        file: this.current.path,
        bytesDone: this.bytesDone,
        bytesTotal: this.bytesTotal,
        documents: this.documents,
        queries: this.queries,
        qrels: this.qrels,
        issueCount: this.issueCount,
      });
    } catch (error) {
      this.handlerError = error;
      throw error;
    }
  }
}

function take<T>(items: T[], n: number): T[] {
  return items.length <= n ? items : items.slice(0, n);
}
