// BM25 indexes kept on disk between CLI runs, so a second `dsw search` or `dsw run` over the same dataset loads
// the index (with the queries, qrels and load summary) instead of reading and indexing every file again. A cache
// file is keyed by the dataset's files (paths, sizes and SHA-256 of their bytes), the analyzer settings, the text
// encoding, whether empty documents are kept (--keep-empty-documents) and the index format, so a changed corpus or
// analyzer is indexed again. Documents are not kept: the cache serves the commands that read documents back from the
// files (`documents: 'stream'`).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import {
  DEFAULT_ANALYZER_OPTIONS,
  newCorpusId,
  WORKBENCH_VERSION,
  type AnalyzerOptions,
  type CorpusQuery,
  type CorpusRecord,
  type CorpusStore,
  type FileSource,
  type IngestSummary,
  type LoadCorpusResult,
  type Qrel,
  type SerializedBm25Index,
  type TextEncodingChoice,
  Bm25Index,
} from '../core/index.ts';

/** Bump when what is cached, or how a corpus is indexed, changes without the workbench version changing. */
const CACHE_FORMAT = 2;

interface CachedDataset {
  format: number;
  key: string;
  corpus: CorpusRecord;
  summary: IngestSummary;
  index: SerializedBm25Index;
  queries: CorpusQuery[];
  qrels: Qrel[];
}

/**
 * The folder of cached indexes: `DSW_CACHE_DIR` (relative to the working directory; `off` or empty: no cache),
 * else `$XDG_CACHE_HOME/dsw`, else `~/.cache/dsw`; null when caching is off or no home is known.
 */
export function indexCacheDir(env: Readonly<Record<string, string | undefined>>, cwd: string): string | null {
  const explicit = env.DSW_CACHE_DIR;
  if (explicit !== undefined) return explicit === '' || explicit === 'off' ? null : path.resolve(cwd, explicit, 'bm25');
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'dsw', 'bm25');
  if (env.HOME) return path.join(env.HOME, '.cache', 'dsw', 'bm25');
  return null;
}

/** The cache key of a dataset's files read with these settings. */
export async function datasetCacheKey(
  sources: readonly FileSource[],
  analyzer: AnalyzerOptions | undefined,
  encoding: TextEncodingChoice | undefined,
  keepEmptyDocuments = false,
): Promise<string> {
  const full = { ...DEFAULT_ANALYZER_OPTIONS, ...analyzer } as Record<string, unknown>;
  const settings = Object.keys(full).sort().map((k) => [k, full[k]]);
  const files: Array<[string, number, string]> = [];
  for (const source of sources) {
    const hash = crypto.createHash('sha256');
    const reader = source.stream().getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) hash.update(part.value);
    files.push([source.path ?? source.name, source.size, hash.digest('hex')]);
  }
  // Kept empty documents change the index (and document count), so they are part of the key; a default load keeps the old key.
  const identity = JSON.stringify([CACHE_FORMAT, WORKBENCH_VERSION, settings, encoding ?? 'utf-8', files, ...(keepEmptyDocuments ? ['keep-empty'] : [])]);
  return crypto.createHash('sha256').update(identity).digest('hex').slice(0, 32);
}

/** A dataset's place in the cache folder. */
export class IndexCache {
  private constructor(
    private readonly file: string,
    private readonly key: string,
  ) {}

  /** The entry for these files and settings. */
  static async open(
    dir: string,
    sources: readonly FileSource[],
    analyzer: AnalyzerOptions | undefined,
    encoding: TextEncodingChoice | undefined,
    keepEmptyDocuments = false,
  ): Promise<IndexCache> {
    const key = await datasetCacheKey(sources, analyzer, encoding, keepEmptyDocuments);
    return new IndexCache(path.join(dir, `${key}.bm25`), key);
  }

  /**
   * Puts the cached corpus (queries, qrels, index; no documents) into `store` as a new corpus named `name` and
   * returns what a load would; null when there is no readable entry.
   */
  async restore(store: CorpusStore, name: string): Promise<LoadCorpusResult | null> {
    let cached: CachedDataset;
    try {
      cached = v8.deserialize(fs.readFileSync(this.file)) as CachedDataset;
    } catch {
      return null;
    }
    if (cached?.format !== CACHE_FORMAT || cached.key !== this.key) return null;
    const id = newCorpusId();
    await store.beginCorpus({ ...cached.corpus, id, name, status: 'ingesting' });
    await store.putBatch(id, { documents: [], queries: cached.queries, qrels: cached.qrels });
    const { documentCount, queryCount, qrelCount, questionCount, issues, issueCount, checksum } = cached.corpus;
    await store.commitCorpus(id, { documentCount, queryCount, qrelCount, questionCount, issues, issueCount, checksum, index: cached.index });
    return { corpus: { ...cached.corpus, id, name, status: 'ready' }, summary: cached.summary, index: Bm25Index.restore(cached.index) };
  }

  /** Writes a fresh load to the cache (atomically); a folder that cannot be written only costs the next run's time. */
  async save(result: LoadCorpusResult, store: CorpusStore): Promise<void> {
    const entry: CachedDataset = {
      format: CACHE_FORMAT,
      key: this.key,
      corpus: result.corpus,
      summary: result.summary,
      index: result.index.serialize(),
      queries: await store.getQueries(result.corpus.id),
      qrels: await store.getQrels(result.corpus.id),
    };
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(tmp, v8.serialize(entry));
      fs.renameSync(tmp, this.file);
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }
}
