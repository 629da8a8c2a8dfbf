import path from 'node:path';
import { findDocuments, IndexOnlyCorpusStore, loadCorpus, MemoryCorpusStore, type AnalyzerOptions, type LoadCorpusResult } from '../core/index.ts';
import { CliError, type CliIo } from './io.ts';
import { directorySources } from './node-sources.ts';

/** A dataset loaded into memory with its BM25 index, through the same loader the browser uses. */
export interface LoadedDataset extends LoadCorpusResult {
  store: MemoryCorpusStore;
}

/**
 * Loads a BEIR folder (or any loadable folder or file); problems in the data are summarised on stderr.
 * `documents: 'stream'` keeps no document in memory (only the index, queries and qrels); documents asked for
 * later are read from the files again. For BM25 over corpora larger than memory.
 */
export async function loadDataset(
  dir: string,
  io: CliIo,
  analyzer?: AnalyzerOptions,
  documents: 'memory' | 'stream' = 'memory',
): Promise<LoadedDataset> {
  const full = path.resolve(io.cwd, dir);
  const sources = await directorySources(full);
  if (sources.length === 0) throw new CliError(`Dataset ${dir} holds no files`);
  const store = documents === 'stream' ? new IndexOnlyCorpusStore((ids) => findDocuments(sources, {}, ids)) : new MemoryCorpusStore();
  let result: LoadCorpusResult;
  try {
    result = await loadCorpus(sources, { name: path.basename(full), analyzer }, store);
  } catch (error) {
    throw new CliError(`Cannot load dataset ${dir}: ${(error as Error).message}`);
  }
  const { summary } = result;
  if (summary.issueCount > 0) {
    io.err(`${dir}: ${summary.issueCount} problem(s) in the data; the rest was loaded.\n`);
    for (const issue of summary.issues.slice(0, 5)) {
      io.err(`  ${issue.file}${issue.line ? `:${issue.line}` : ''}${issue.field ? ` [${issue.field}]` : ''}: ${issue.reason}\n`);
    }
  }
  return { ...result, store };
}
