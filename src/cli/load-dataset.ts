import path from 'node:path';
import { CorpusLoadError, findDocuments, IndexOnlyCorpusStore, loadCorpus, MemoryCorpusStore, type AnalyzerOptions, type IngestIssue, type LoadCorpusResult, type TextEncodingChoice } from '../core/index.ts';
import { CliError, type CliIo } from './io.ts';
import { directorySources } from './node-sources.ts';

/** A dataset loaded into memory with its BM25 index, through the same loader the browser uses. */
export interface LoadedDataset extends LoadCorpusResult {
  store: MemoryCorpusStore;
}

/** Problems printed when a load fails as a whole. */
const FAILED_LOAD_ISSUES = 20;

export interface LoadDatasetOptions {
  analyzer?: AnalyzerOptions;
  /** How the files' bytes are decoded when they carry no byte-order mark (default UTF-8). */
  encoding?: TextEncodingChoice;
  /**
   * `stream` keeps no document in memory (only the index, queries and qrels); documents asked for later are read
   * from the files again. For BM25 over corpora larger than memory. Default `memory`.
   */
  documents?: 'memory' | 'stream';
}

/** Loads a BEIR folder (or any loadable folder or file); problems in the data are summarised on stderr. */
export async function loadDataset(dir: string, io: CliIo, options: LoadDatasetOptions = {}): Promise<LoadedDataset> {
  const { analyzer, encoding, documents = 'memory' } = options;
  const full = path.resolve(io.cwd, dir);
  const sources = await directorySources(full);
  if (sources.length === 0) throw new CliError(`Dataset ${dir} holds no files`);
  const store = documents === 'stream' ? new IndexOnlyCorpusStore((ids) => findDocuments(sources, { encoding }, ids)) : new MemoryCorpusStore();
  let result: LoadCorpusResult;
  try {
    result = await loadCorpus(sources, { name: path.basename(full), analyzer, encoding }, store);
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
  return { ...result, store };
}

/** An issue as `file:line [field]: reason`. */
export function formatIssue(issue: IngestIssue): string {
  return `${issue.file}${issue.line ? `:${issue.line}` : ''}${issue.field ? ` [${issue.field}]` : ''}: ${issue.reason}`;
}
