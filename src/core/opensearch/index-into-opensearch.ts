// The `dsw index` use case: streams a dataset through the workbench's own reader into an OpenSearch index (bulk
// requests, vectors by the workbench's encoder), resumable after a stop, refusing to overwrite another corpus.
import { throwIfAborted } from '../abort/index.ts';
import {
  addDocument, SetChecksum, ingest, type IngestOptions, type FileSource, type CorpusDocument, type CorpusQuery,
  type Qrel,
} from '../corpus/index.ts';
import { documentText, embeddingModelKey, longestFirst, type EmbeddingModelInfo } from '../embedding/index.ts';
import { OKAPI_BM25 } from '../bm25/index.ts';
import type { CorpusRecord } from '../storage/index.ts';
import { DEFAULT_ANALYZER_OPTIONS, type AnalyzerOptions } from '../text/index.ts';
import { readClusterMeta } from './cluster-corpus-store.ts';
import {
  CLUSTER_LAYOUT,
  DEFAULT_HNSW,
  documentIndexBody,
  SEARCH_FIELD,
  searchTextOf,
  SIDE_CHUNK,
  SIDE_INDEX_BODY,
  sideIndexOf,
  STORED_VECTOR_FIELD,
  VECTOR_FIELD,
  vectorToBase64,
  type ClusterCorpusMeta,
  type HnswParams,
} from './cluster-index.ts';
import type { OpenSearchClient } from './opensearch-client.ts';

/** What embeds passages for the vector field (the workbench's `Embedder`). */
export interface PassageEmbedder {
  readonly info: EmbeddingModelInfo;
  embedTexts(texts: string[], kind: 'passage'): Promise<Float32Array>;
  tokenCounts(texts: readonly string[], kind: 'passage'): number[];
}

export interface IndexIntoOpenSearchOptions extends Pick<IngestOptions, 'encoding' | 'mapping' | 'passages' | 'qrelsSplit' | 'keepEmptyDocuments'> {
  /** The document index; queries, qrels and the corpus record go to `<index>__dsw`. */
  index: string;
  /** The corpus's name (shown in the app). */
  name: string;
  /** Identity of the source files: an index is resumed or kept only for the same files. */
  fingerprint: string;
  analyzer?: Partial<AnalyzerOptions>;
  bm25?: { k1: number; b: number };
  /** Primary shards (default 1). */
  shards?: number;
  /** Embeds every document into the vector field. */
  embedder?: PassageEmbedder;
  hnsw?: HnswParams;
  /** Delete an index holding anything else first. */
  replace?: boolean;
  /** Documents per bulk request (default 500). */
  batchSize?: number;
  /** Texts per model call (default 32). */
  embedBatchSize?: number;
}

export interface IndexProgress {
  /** Documents written to the index (those of an earlier, interrupted run included). */
  documentsDone: number;
  /** Documents read from the files so far. */
  documentsRead: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface IndexResult {
  meta: ClusterCorpusMeta;
  /** `indexed`: written now; `resumed`: an interrupted index continued at `resumedAt`; `unchanged`: it was complete. */
  outcome: 'indexed' | 'resumed' | 'unchanged';
  resumedAt: number;
}

/** The settings that make two indexes of the same files different corpora. */
function settingsOf(meta: Pick<ClusterCorpusMeta, 'record' | 'shards' | 'bm25' | 'embedding' | 'layout'>): string {
  return JSON.stringify({ layout: meta.layout ?? 1, analyzer: meta.record.analyzer, shards: meta.shards, bm25: meta.bm25, model: meta.embedding?.modelKey ?? null, hnsw: meta.embedding?.hnsw ?? null });
}

export async function indexIntoOpenSearch(
  sources: FileSource[],
  options: IndexIntoOpenSearchOptions,
  client: OpenSearchClient,
  onProgress?: (progress: IndexProgress) => void,
  signal?: AbortSignal,
): Promise<IndexResult> {
  const { index } = options;
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(index) || index.includes('__')) {
    throw new Error(`"${index}" cannot name an OpenSearch corpus: use lower-case letters, digits, '.', '_' and '-' (no '__'), starting with a letter or digit`);
  }
  const analyzer: AnalyzerOptions = { ...DEFAULT_ANALYZER_OPTIONS, ...options.analyzer };
  const bm25 = options.bm25 ?? { k1: OKAPI_BM25.k1, b: OKAPI_BM25.b };
  const shards = options.shards ?? 1;
  const embedding = options.embedder ? { model: options.embedder.info, modelKey: embeddingModelKey(options.embedder.info), hnsw: options.hnsw ?? { ...DEFAULT_HNSW } } : undefined;
  const record: CorpusRecord = {
    id: index,
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
  const engineVersion = ((await client.request<{ version?: { number?: string } }>('GET', '/', undefined, signal)).version?.number) ?? undefined;
  const wanted: ClusterCorpusMeta = { layout: CLUSTER_LAYOUT, record, status: 'indexing', documentsDone: 0, fingerprint: options.fingerprint, shards, bm25, embedding, engineVersion };

  let existing = await readClusterMeta(client, index);
  const documentsExist = await client.exists(index);
  if (existing || documentsExist) {
    const same = existing && existing.fingerprint === wanted.fingerprint && settingsOf(existing) === settingsOf(wanted);
    if (!same && !options.replace) {
      const what = !existing
        ? `an index "${index}" that is not a workbench corpus`
        : existing.fingerprint !== wanted.fingerprint
          ? `another corpus in "${index}" ("${existing.record.name}", ${existing.record.documentCount || existing.documentsDone} documents)`
          : `"${index}" indexed with other settings (${settingsOf(existing)})`;
      throw new Error(`OpenSearch at ${client.url} already holds ${what}; give --replace to delete it and index this dataset`);
    }
    if (!same) {
      await deleteCorpusIndexes(client, index, signal);
      existing = undefined;
    } else if (existing!.status === 'ready') {
      return { meta: existing!, outcome: 'unchanged', resumedAt: existing!.documentsDone };
    }
  }
  const resumedAt = existing?.documentsDone ?? 0;
  if (!existing) {
    await client.request('PUT', `/${index}`, documentIndexBody({ analyzer, bm25, shards, embedding: embedding && { dimensions: embedding.model.dimensions, hnsw: embedding.hnsw } }), signal);
    await client.request('PUT', `/${sideIndexOf(index)}`, SIDE_INDEX_BODY, signal);
    await putMeta(client, index, wanted, signal);
  }
  const meta: ClusterCorpusMeta = existing ? { ...existing } : wanted;

  const queries: CorpusQuery[] = [];
  const qrels: Qrel[] = [];
  const checksum = new SetChecksum();
  let read = 0;
  let questionCount = 0;
  let bytes = { bytesDone: 0, bytesTotal: 0 };
  const report = () => onProgress?.({ documentsDone: meta.documentsDone, documentsRead: read, ...bytes });
  const summary = await ingest(
    sources,
    { encoding: options.encoding, mapping: options.mapping, passages: options.passages, qrelsSplit: options.qrelsSplit, keepEmptyDocuments: options.keepEmptyDocuments, batchSize: options.batchSize ?? 500 },
    {
      async onBatch(batch) {
        throwIfAborted(signal);
        for (const doc of batch.documents) addDocument(checksum, doc);
        queries.push(...batch.queries);
        for (const q of batch.queries) if (q.answers && q.answers.length > 0) questionCount++;
        qrels.push(...batch.qrels);
        const first = read;
        read += batch.documents.length;
        // Documents before `documentsDone` were written by the interrupted run (the reader's order is fixed).
        const fresh = batch.documents.slice(Math.max(0, meta.documentsDone - first));
        if (fresh.length === 0) return;
        const vectors = options.embedder ? await embedPassages(options.embedder, fresh, options.embedBatchSize ?? 32, signal) : null;
        throwIfAborted(signal);
        const lines: unknown[] = [];
        fresh.forEach((doc, i) => {
          lines.push({ index: { _index: index, _id: doc.id } });
          lines.push({
            id: doc.id,
            title: doc.title,
            text: doc.text,
            ...(doc.metadata ? { metadata: doc.metadata } : {}),
            [SEARCH_FIELD]: searchTextOf(doc),
            ...(vectors ? { [VECTOR_FIELD]: Array.from(vectors[i]!), [STORED_VECTOR_FIELD]: vectorToBase64(vectors[i]!) } : {}),
          });
        });
        await client.bulk(lines, signal);
        meta.documentsDone = read;
        await client.request('POST', `/${sideIndexOf(index)}/_update/corpus`, { doc: { documentsDone: read } }, signal);
        report();
      },
      onProgress(progress) {
        bytes = { bytesDone: progress.bytesDone, bytesTotal: progress.bytesTotal };
      },
    },
    signal,
  );
  if (summary.documents === 0) {
    await deleteCorpusIndexes(client, index, signal);
    throw new Error(summary.issueCount > 0 ? `No document could be read (${summary.issueCount} problems; the first: ${summary.issues[0]?.reason})` : 'The files hold no documents.');
  }
  const side: unknown[] = [];
  const chunked = <T>(kind: 'queries' | 'qrels', items: T[]) => {
    for (let chunk = 0; chunk * SIDE_CHUNK < items.length; chunk++) {
      side.push({ index: { _index: sideIndexOf(index), _id: `${kind}-${chunk}` } });
      side.push({ kind, chunk, items: items.slice(chunk * SIDE_CHUNK, (chunk + 1) * SIDE_CHUNK) });
    }
  };
  chunked('queries', queries);
  chunked('qrels', qrels);
  for (let start = 0; start < side.length; start += 40) await client.bulk(side.slice(start, start + 40), signal);
  await client.request('POST', `/${index}/_refresh`, undefined, signal);
  const done: ClusterCorpusMeta = {
    ...meta,
    status: 'ready',
    documentsDone: summary.documents,
    record: {
      ...meta.record,
      status: 'ready',
      documentCount: summary.documents,
      queryCount: summary.queries,
      qrelCount: summary.qrels,
      questionCount,
      issues: summary.issues.slice(0, 200),
      issueCount: summary.issueCount,
      checksum: checksum.value(),
    },
  };
  await putMeta(client, index, done, signal);
  await client.request('POST', `/${sideIndexOf(index)}/_refresh`, undefined, signal);
  report();
  return { meta: done, outcome: resumedAt > 0 ? 'resumed' : 'indexed', resumedAt };
}

/** Deletes a corpus index and its side index (absent ones are ignored). */
export async function deleteCorpusIndexes(client: OpenSearchClient, index: string, signal?: AbortSignal): Promise<void> {
  for (const name of [index, sideIndexOf(index)]) {
    if (await client.exists(name)) await client.request('DELETE', `/${name}`, undefined, signal);
  }
}

/**
 * Changes the BM25 k1 and b of a corpus index in place: a similarity is an index setting, changed only while the
 * index is closed (Lucene keeps document lengths, not k1/b, in the index, so nothing is reindexed).
 */
export async function setClusterBm25(client: OpenSearchClient, index: string, bm25: { k1: number; b: number }, signal?: AbortSignal): Promise<void> {
  await readClusterMeta(client, index, { ready: true });
  await client.request('POST', `/${index}/_close?wait_for_active_shards=all`, undefined, signal);
  try {
    await client.request('PUT', `/${index}/_settings`, { index: { similarity: { dsw_bm25: { type: 'BM25', k1: bm25.k1, b: bm25.b } } } }, signal);
  } finally {
    await client.request('POST', `/${index}/_open?wait_for_active_shards=all`, undefined, signal);
  }
  await client.request('POST', `/${sideIndexOf(index)}/_update/corpus?refresh=true`, { doc: { bm25 } }, signal);
}

async function putMeta(client: OpenSearchClient, index: string, meta: ClusterCorpusMeta, signal?: AbortSignal): Promise<void> {
  await client.request('PUT', `/${sideIndexOf(index)}/_doc/corpus?refresh=true`, { kind: 'corpus', ...meta }, signal);
}

/** Passage vectors of a batch, longest texts together (a model call pads to its longest text), rows in input order. */
async function embedPassages(embedder: PassageEmbedder, docs: readonly CorpusDocument[], batchSize: number, signal?: AbortSignal): Promise<Float32Array[]> {
  const texts = docs.map(documentText);
  const order = longestFirst(embedder.tokenCounts(texts, 'passage'));
  const dims = embedder.info.dimensions;
  const out: Float32Array[] = new Array(docs.length);
  for (let start = 0; start < order.length; start += batchSize) {
    throwIfAborted(signal);
    const rows = order.slice(start, start + batchSize);
    const vectors = await embedder.embedTexts(rows.map((i) => texts[i]!), 'passage');
    rows.forEach((row, j) => (out[row] = vectors.slice(j * dims, (j + 1) * dims)));
  }
  return out;
}
