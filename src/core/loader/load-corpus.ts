import {
  addDocument, SetChecksum, ingest, type IngestOptions, type IngestProgress, type IngestSummary, type FileSource,
} from '../corpus/index.ts';
import { Bm25Index } from '../bm25/index.ts';
import type { CorpusRecord, CorpusStore } from '../storage/index.ts';
import { DEFAULT_ANALYZER_OPTIONS, type AnalyzerOptions } from '../text/index.ts';
import { newId } from '../ids/index.ts';

/** How a corpus is loaded: the parsing options plus what the index needs. */
export interface LoadCorpusOptions extends IngestOptions {
  /** Shown in the corpus list. */
  name: string;
  /** Tokenizer settings of the BM25 index. */
  analyzer?: Partial<AnalyzerOptions>;
  /** Id for the new corpus; a random one when absent. */
  id?: string;
  /**
   * Refuse documents already stored as another ready corpus (same content checksum): nothing is kept and a
   * {@link DuplicateCorpusError} names that corpus. Off by default (a copy is then made).
   */
  refuseDuplicates?: boolean;
}

/** Progress while loading: parsing progress plus the phase. */
export interface LoadProgress extends IngestProgress {
  /** `reading`: files are being parsed, stored and indexed; `saving`: the index is being written. */
  phase: 'reading' | 'saving';
}

export interface LoadCorpusResult {
  corpus: CorpusRecord;
  summary: IngestSummary;
  /** The index just built, ready to search (the store holds its serialised copy). */
  index: Bm25Index;
}

const STORED_ISSUES = 200;

/** A load in which no document survived: carries what went wrong with each file and line. */
export class CorpusLoadError extends Error {
  constructor(
    message: string,
    /** What was read: per-file counts and the issues (file, line, field, reason). */
    readonly summary: IngestSummary,
  ) {
    super(message);
    this.name = 'CorpusLoadError';
  }
}

/** A load refused because the same documents are stored already as `existing`. */
export class DuplicateCorpusError extends Error {
  constructor(readonly existing: CorpusRecord) {
    const checksum = existing.checksum && existing.checksum.length > 19 ? `${existing.checksum.slice(0, 19)}…` : existing.checksum;
    super(`These documents are already loaded as “${existing.name}” (the same ${existing.documentCount} documents, content checksum ${checksum}).`);
    this.name = 'DuplicateCorpusError';
  }
}

/**
 * Streams files into a store and builds the BM25 index on the way. The corpus becomes visible only when every
 * document and the index are written; on failure or cancellation everything written for it is removed, and
 * other corpora are never touched. When no document survives, rejects with a CorpusLoadError carrying the issues.
 */
export async function loadCorpus(
  sources: FileSource[],
  options: LoadCorpusOptions,
  store: CorpusStore,
  onProgress?: (progress: LoadProgress) => void,
  signal?: AbortSignal,
): Promise<LoadCorpusResult> {
  const analyzer = { ...DEFAULT_ANALYZER_OPTIONS, ...options.analyzer };
  const index = Bm25Index.create(analyzer);
  const id = options.id ?? newCorpusId();
  const record: CorpusRecord = {
    id,
    name: options.name,
    createdAt: Date.now(),
    status: 'ingesting',
    documentCount: 0,
    queryCount: 0,
    qrelCount: 0,
    questionCount: 0,
    analyzer,
    sources: sources.map((s) => s.path ?? s.name),
    bytes: sources.reduce((sum, s) => sum + s.size, 0),
    issues: [],
    issueCount: 0,
  };
  await store.beginCorpus(record);
  // A batch's write runs while it is indexed and while the next batch is parsed (the store works in another
  // thread or process); it is awaited before the write after it starts, so at most two are in flight.
  let writing: Promise<void> | null = null;
  try {
    let questionCount = 0;
    const checksum = new SetChecksum();
    let last: IngestProgress | undefined;
    const summary = await ingest(
      sources,
      options,
      {
        async onBatch(batch) {
          signal?.throwIfAborted();
          const previous = writing;
          writing = store.putBatch(id, batch);
          // Handled here so that a failure while the next batch is parsed is not an unhandled rejection; it is
          // still thrown where the write is awaited.
          writing.catch(() => undefined);
          index.addAll(batch.documents);
          for (const doc of batch.documents) addDocument(checksum, doc);
          for (const q of batch.queries) if (q.answers && q.answers.length > 0) questionCount++;
          await previous;
        },
        onProgress(progress) {
          last = progress;
          onProgress?.({ ...progress, phase: 'reading' });
        },
      },
      signal,
    );
    await writing;
    signal?.throwIfAborted();
    if (summary.documents === 0) {
      throw new CorpusLoadError(
        summary.issueCount > 0
          ? `No document could be loaded: ${summary.issueCount === 1 ? 'the problem is' : `all ${summary.issueCount} problems are`} listed below.`
          : 'The files hold no documents.',
        summary,
      );
    }
    const contentChecksum = checksum.value();
    if (options.refuseDuplicates) {
      const existing = (await store.listCorpora()).find((c) => c.id !== id && !c.remote && c.checksum === contentChecksum);
      if (existing) throw new DuplicateCorpusError(existing);
    }
    if (last) onProgress?.({ ...last, phase: 'saving' });
    const counts = {
      documentCount: summary.documents,
      queryCount: summary.queries,
      qrelCount: summary.qrels,
      questionCount,
      issues: summary.issues.slice(0, STORED_ISSUES),
      issueCount: summary.issueCount,
      checksum: contentChecksum,
    };
    await store.commitCorpus(id, { ...counts, index: index.serialize() });
    return { corpus: { ...record, ...counts, status: 'ready' }, summary, index };
  } catch (error) {
    // A write still in flight must end before the delete, or it could store rows after them.
    await (writing as Promise<void> | null)?.catch(() => undefined);
    await store.deleteCorpus(id).catch(() => undefined);
    throw error;
  }
}

/** A new corpus id. */
export function newCorpusId(): string {
  return newId('c', 6);
}
