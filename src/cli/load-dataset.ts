import path from 'node:path';
import {
  CorpusLoadError,
  findDocuments,
  IndexOnlyCorpusStore,
  loadCorpus,
  MemoryCorpusStore,
  SpooledCorpusStore,
  type AnalyzerOptions,
  type IngestIssue,
  type LoadCorpusResult,
  type TextEncodingChoice,
} from '../core/index.ts';
import { FileDocumentSpool } from './file-document-spool.ts';
import { IndexCache, indexCacheDir } from './index-cache.ts';
import { CliError, type CliIo } from './io.ts';
import { directorySources } from './node-sources.ts';

/** A dataset loaded into memory with its BM25 index, through the same loader the browser uses. */
export interface LoadedDataset extends LoadCorpusResult {
  store: MemoryCorpusStore;
  /** Removes what the load wrote besides memory (the document spool); the store holds no corpus afterwards. */
  close(): Promise<void>;
}

/** Problems printed when a load fails as a whole. */
const FAILED_LOAD_ISSUES = 20;

export interface LoadDatasetOptions {
  analyzer?: AnalyzerOptions;
  /** How the files' bytes are decoded when they carry no byte-order mark (default UTF-8). */
  encoding?: TextEncodingChoice;
  /**
   * Where documents are kept; `stream` and `spool` keep none in memory (only the index, queries and qrels), for
   * BM25 over corpora larger than memory. `stream`: documents asked for are found by reading the files again (one
   * pass per lookup: for a process that shows its hits once, or never). `spool`: documents are copied to a file
   * while they load and read back a few reads per lookup (for a server). Default `memory`.
   */
  documents?: 'memory' | 'stream' | 'spool';
  /** Keep documents whose text is empty (skipped with a warning otherwise), so their judgements stay. */
  keepEmptyDocuments?: boolean;
  /** Folder where the `spool` file is made (default the OS temp folder); the file is removed on close or exit. */
  spoolDir?: string;
}

/** Loads a BEIR folder (or any loadable folder or file); problems in the data are summarised on stderr. */
export async function loadDataset(dir: string, io: CliIo, options: LoadDatasetOptions = {}): Promise<LoadedDataset> {
  const { analyzer, encoding, documents = 'memory', spoolDir, keepEmptyDocuments = false } = options;
  const full = path.resolve(io.cwd, dir);
  const sources = await directorySources(full);
  if (sources.length === 0) throw new CliError(`Dataset ${dir} holds no files`);
  const store =
    documents === 'stream'
      ? new IndexOnlyCorpusStore((ids) => findDocuments(sources, { encoding, keepEmptyDocuments }, ids))
      : documents === 'spool'
        ? new SpooledCorpusStore(() => FileDocumentSpool.create({ dir: spoolDir && path.resolve(io.cwd, spoolDir) }))
        : new MemoryCorpusStore();
  const close = async () => {
    if (store instanceof SpooledCorpusStore) await store.close();
  };
  // Index-only loads keep their index between runs (see index-cache.ts).
  const cacheDir = documents === 'stream' ? indexCacheDir(io.env, io.cwd) : null;
  const cache = cacheDir ? await IndexCache.open(cacheDir, sources, analyzer, encoding, keepEmptyDocuments) : null;
  let result: LoadCorpusResult;
  try {
    const cached = await cache?.restore(store, path.basename(full));
    result = cached ?? (await loadCorpus(sources, { name: path.basename(full), analyzer, encoding, ...(keepEmptyDocuments ? { keepEmptyDocuments } : {}) }, store));
    if (cache && !cached) await cache.save(result, store);
  } catch (error) {
    if (error instanceof CorpusLoadError) {
      const { issues, issueCount } = error.summary;
      for (const issue of issues.slice(0, FAILED_LOAD_ISSUES)) io.err(`  ${formatIssue(issue)}\n`);
      if (issueCount > FAILED_LOAD_ISSUES) io.err(`  … and ${issueCount - FAILED_LOAD_ISSUES} more\n`);
      const listed = issueCount === 0 ? 'The files hold no documents.' : `No document could be loaded; ${issueCount === 1 ? 'the problem is' : `${issueCount > FAILED_LOAD_ISSUES ? `the first ${FAILED_LOAD_ISSUES} of ${issueCount}` : `all ${issueCount}`} problems are`} listed above.`;
      throw new CliError(`Cannot load dataset ${dir}: ${listed}`);
    }
    throw new CliError(`Cannot load dataset ${dir}: ${(error as Error).message}`);
  }
  const { summary } = result;
  if (summary.issueCount > 0) {
    io.err(`${dir}: ${summary.issueCount} problem(s) in the data; the rest was loaded.\n`);
    for (const issue of summary.issues.slice(0, 5)) {
      io.err(`  ${formatIssue(issue)}\n`);
    }
  }
  return { ...result, store, close };
}

/** An issue as `file:line [field]: reason`. */
export function formatIssue(issue: IngestIssue): string {
  return `${issue.file}${issue.line ? `:${issue.line}` : ''}${issue.field ? ` [${issue.field}]` : ''}: ${issue.reason}`;
}
