// A corpus indexed in OpenSearch, seen as the core's CorpusStore: documents by mget and search_after, the record,
// queries and qrels from the side index. Read-only: corpora are written by `indexIntoOpenSearch` (dsw index).
import type { CorpusDocument, CorpusQuery, Qrel } from '../corpus/index.ts';
import type { CorpusCommit, CorpusRecord, CorpusStore } from '../storage/index.ts';
import { sideIndexOf, STORED_VECTOR_FIELD, type ClusterCorpusMeta } from './cluster-index.ts';
import { OpenSearchError, type OpenSearchClient } from './opensearch-client.ts';

/** The side index's record of a corpus index; an error in words when there is none or it is not complete. */
export async function readClusterMeta(client: OpenSearchClient, index: string, options: { ready?: boolean } = {}): Promise<ClusterCorpusMeta | undefined> {
  let meta: ClusterCorpusMeta | undefined;
  try {
    [meta] = await client.mget<ClusterCorpusMeta>(sideIndexOf(index), ['corpus']);
  } catch (error) {
    if (error instanceof OpenSearchError && error.status === 404) meta = undefined;
    else throw error;
  }
  if (options.ready && !meta) {
    throw new Error(`OpenSearch at ${client.url} has no workbench corpus "${index}"; index one with dsw index --dataset <dir> --opensearch ${client.url} --index ${index}`);
  }
  if (options.ready && meta!.status !== 'ready') {
    throw new Error(
      `The corpus "${index}" on ${client.url} is not complete (${meta!.documentsDone} documents written); run the same dsw index command again to finish it`,
    );
  }
  return meta;
}

type StoredDocument = { id: string; title: string; text: string; metadata?: Record<string, unknown> };

function asDocument(source: StoredDocument): CorpusDocument {
  return { id: source.id, title: source.title ?? '', text: source.text ?? '', ...(source.metadata ? { metadata: source.metadata } : {}) };
}

/** One OpenSearch corpus (its id is the index name) behind the CorpusStore interface. */
export class OpenSearchCorpusStore implements CorpusStore {
  private queries: Promise<CorpusQuery[]> | undefined;
  private qrels: Promise<Qrel[]> | undefined;

  constructor(
    readonly client: OpenSearchClient,
    readonly index: string,
    readonly meta: ClusterCorpusMeta,
  ) {}

  /** Opens a complete corpus index; rejects in words when it is missing or unfinished. */
  static async open(client: OpenSearchClient, index: string): Promise<OpenSearchCorpusStore> {
    return new OpenSearchCorpusStore(client, index, (await readClusterMeta(client, index, { ready: true }))!);
  }

  /** The corpus record, with the index as its id and the cluster as its source. */
  get record(): CorpusRecord {
    return { ...this.meta.record, id: this.index, status: 'ready', sources: [`${this.client.url}/${this.index}`] };
  }

  async listCorpora() {
    return [this.record];
  }
  async getCorpus(id: string) {
    return id === this.index ? this.record : undefined;
  }
  async listIncomplete() {
    return [];
  }
  beginCorpus(): Promise<void> {
    return this.readOnly();
  }
  putBatch(): Promise<void> {
    return this.readOnly();
  }
  commitCorpus(_id: string, _commit: CorpusCommit): Promise<void> {
    return this.readOnly();
  }
  deleteCorpus(): Promise<void> {
    return this.readOnly();
  }
  renameCorpus(): Promise<void> {
    return this.readOnly();
  }
  async getBm25Index() {
    return undefined;
  }

  async getDocuments(corpusId: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>> {
    this.check(corpusId);
    const sources = await this.client.mget<StoredDocument>(this.index, ids, { excludes: [STORED_VECTOR_FIELD] });
    return sources.map((source) => (source ? asDocument(source) : undefined));
  }

  /** Documents in id order (the `id` keyword field), a page after `after`. */
  async listDocuments(corpusId: string, options: { after?: string; limit: number }): Promise<CorpusDocument[]> {
    this.check(corpusId);
    const hits = await this.client.search<StoredDocument>(
      this.index,
      { size: options.limit, query: { match_all: {} }, sort: [{ id: 'asc' }], _source: { excludes: [STORED_VECTOR_FIELD] }, ...(options.after !== undefined ? { search_after: [options.after] } : {}) },
      undefined,
      'query_then_fetch',
    );
    return hits.map((hit) => asDocument(hit._source!));
  }

  getQueries(corpusId: string): Promise<CorpusQuery[]> {
    this.check(corpusId);
    this.queries ??= this.chunks<CorpusQuery>('queries');
    return this.queries;
  }

  getQrels(corpusId: string): Promise<Qrel[]> {
    this.check(corpusId);
    this.qrels ??= this.chunks<Qrel>('qrels');
    return this.qrels;
  }

  private async chunks<T>(kind: 'queries' | 'qrels'): Promise<T[]> {
    const out: T[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const hits = await this.client.search<{ items: T[] }>(
        sideIndexOf(this.index),
        { size: 100, query: { term: { kind } }, sort: [{ chunk: 'asc' }], ...(after ? { search_after: after } : {}) },
        undefined,
        'query_then_fetch',
      );
      for (const hit of hits) out.push(...hit._source!.items);
      if (hits.length < 100) return out;
      after = hits[hits.length - 1]!.sort;
    }
  }

  private check(corpusId: string): void {
    if (corpusId !== this.index) throw new Error(`This store holds the OpenSearch corpus "${this.index}", not "${corpusId}"`);
  }

  private readOnly(): Promise<never> {
    return Promise.reject(new Error(`The OpenSearch corpus "${this.index}" is written by dsw index, not through this store`));
  }
}
