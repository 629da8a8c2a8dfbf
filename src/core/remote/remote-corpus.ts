// A corpus served by a workbench server, seen through the same interfaces as a stored one: a CorpusStore that
// sends a remote corpus's reads to its server, and RetrievalResources whose pipelines run there. Hosts (the
// workers, the UI) wrap their local store once and then never ask where a corpus lives.
import type { Bm25Index } from '../bm25/index.ts';
import type { CorpusDocument, CorpusQuery, Qrel } from '../corpus/index.ts';
import type { GqrConfig } from '../gqr/index.ts';
import { buildRetriever, type RetrievalResources, type GqrPrepared, type PipelineSpec, type Retriever } from '../retrieval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import type { CorpusCommit, CorpusRecord, CorpusStore, RemoteCorpusRef } from '../storage/index.ts';
import { preparedFromJson, type ServedCorpusInfo } from './serve-protocol.ts';
import { WorkbenchServerClient } from './server-client.ts';

/** The client for a server, with its stored token (hosts look it up in their settings store). */
export type ServerClientFor = (server: string) => Promise<WorkbenchServerClient>;

/** What a run records about where it ran: the server's address and the corpus's identity there. */
export function remoteRunConfig(ref: RemoteCorpusRef): Record<string, unknown> {
  return { server: ref.server, serverCorpusId: ref.corpusId };
}

/** The local record of a remote corpus (`id` is local; runs and HDS runs are stored under it). */
export function remoteCorpusRecord(id: string, server: string, info: ServedCorpusInfo, now = Date.now()): CorpusRecord & { remote: RemoteCorpusRef } {
  return {
    id,
    name: `${info.name} @ ${new URL(server).host}`,
    createdAt: now,
    status: 'ready',
    documentCount: info.documentCount,
    queryCount: info.queryCount,
    qrelCount: info.qrelCount,
    questionCount: info.questionCount,
    analyzer: info.analyzer,
    sources: [`${server}/api/v1/corpora/${info.id}`],
    bytes: 0,
    issues: [],
    issueCount: 0,
    remote: { server, corpusId: info.id, embeddingSets: info.embeddingSets.map((set) => ({ ...set, corpusId: id })) },
  };
}

/** A pipeline run by the server: one HTTP call per search, one streamed call per query set. */
export class RemoteRetriever implements Retriever {
  readonly pipeline: string;
  private serverConfig: Record<string, unknown> = {};

  constructor(
    private readonly client: WorkbenchServerClient,
    private readonly ref: RemoteCorpusRef,
    readonly spec: PipelineSpec,
  ) {
    this.pipeline = spec.kind;
  }

  /** The server's configuration of the pipeline (known after the first call), with where it ran. */
  get config(): Readonly<Record<string, unknown>> {
    return { ...this.serverConfig, ...remoteRunConfig(this.ref) };
  }

  /** The GQR settings of a GQR spec (what the lab re-ranks prepared queries with). */
  get gqr(): Readonly<GqrConfig> {
    if (this.spec.kind !== 'gqr') throw new Error('Not a GQR pipeline');
    return this.spec.config;
  }

  async search(text: string, k: number, signal?: AbortSignal): Promise<ScoredDoc[]> {
    const response = await this.client.search(this.ref.corpusId, this.spec, text, k, signal);
    this.serverConfig = response.config;
    return response.hits.map(({ id, score }) => ({ id, score }));
  }

  async searchMany(queries: readonly { id: string; text: string }[], k: number, onProgress?: (done: number, total: number) => void, signal?: AbortSignal) {
    const served = await this.client.run(this.ref.corpusId, this.spec, k, onProgress, signal);
    this.serverConfig = served.config;
    const rankings = new Map<string, ScoredDoc[]>();
    for (const query of queries) {
      // The server runs its stored queries; any other text is searched on its own.
      rankings.set(query.id, (Object.hasOwn(served.rankings, query.id) ? served.rankings[query.id] : undefined) ?? (await this.search(query.text, k, signal)));
    }
    return rankings;
  }

  /** GQR: the server runs both children and returns the pool's scores and embeddings; re-ranking is local. */
  async prepare(text: string, topK: number, signal?: AbortSignal): Promise<GqrPrepared> {
    const served = await this.client.prepareGqr(this.ref.corpusId, this.spec, topK, { texts: [text] }, undefined, signal);
    this.serverConfig = served.config;
    return preparedFromJson(served.prepared[0]!);
  }

  /** GQR over stored queries (all when `queryIds` is null) in one streamed call. */
  async prepareQueries(queryIds: readonly string[] | null, topK: number, onProgress?: (done: number, total: number) => void, signal?: AbortSignal) {
    const served = await this.client.prepareGqr(this.ref.corpusId, this.spec, topK, { queryIds }, onProgress, signal);
    this.serverConfig = served.config;
    return served.prepared.map(({ queryId, ...json }) => ({ queryId, ...preparedFromJson(json) }));
  }
}

/** Resources of a remote corpus: every pipeline is a RemoteRetriever. */
export function remoteResources(client: WorkbenchServerClient, ref: RemoteCorpusRef): RetrievalResources {
  return {
    bm25Index: (): Promise<Bm25Index> => Promise.reject(new Error(`This corpus is served by ${ref.server}; its index stays there.`)),
    retriever: async (spec) => new RemoteRetriever(client, ref, spec),
  };
}

/**
 * Resources that decide per call whether the corpus is local or remote: `local` for a stored corpus, the server
 * for a remote one.
 */
export function routedResources(corpusId: string, store: RemoteAwareCorpusStore, local: () => RetrievalResources): RetrievalResources {
  return {
    bm25Index: async () => {
      const ref = await store.remoteOf(corpusId);
      if (ref) return remoteResources(await store.clientFor(ref.server), ref).bm25Index();
      return local().bm25Index();
    },
    retriever: async (spec) => {
      const ref = await store.remoteOf(corpusId);
      if (ref) return new RemoteRetriever(await store.clientFor(ref.server), ref, spec);
      return buildRetriever(spec, local());
    },
  };
}

/**
 * A CorpusStore over a local one in which remote corpora answer from their server: documents, queries and qrels
 * are fetched (queries and qrels once per store), everything else (listing, renaming, deleting) stays local.
 */
export class RemoteAwareCorpusStore implements CorpusStore {
  private readonly cached = new Map<string, Promise<unknown>>();

  constructor(
    readonly local: CorpusStore,
    readonly clientFor: ServerClientFor,
  ) {}

  /** Where a corpus lives when it is remote; null for a stored corpus (or none). */
  async remoteOf(corpusId: string): Promise<RemoteCorpusRef | null> {
    return (await this.local.getCorpus(corpusId))?.remote ?? null;
  }

  listCorpora() {
    return this.local.listCorpora();
  }
  getCorpus(id: string) {
    return this.local.getCorpus(id);
  }
  beginCorpus(record: CorpusRecord) {
    return this.local.beginCorpus(record);
  }
  putBatch(corpusId: string, batch: { documents: CorpusDocument[]; queries: CorpusQuery[]; qrels: Qrel[] }) {
    return this.local.putBatch(corpusId, batch);
  }
  commitCorpus(corpusId: string, commit: CorpusCommit) {
    return this.local.commitCorpus(corpusId, commit);
  }
  deleteCorpus(corpusId: string) {
    this.forget(corpusId);
    return this.local.deleteCorpus(corpusId);
  }
  renameCorpus(corpusId: string, name: string) {
    return this.local.renameCorpus(corpusId, name);
  }
  listIncomplete() {
    return this.local.listIncomplete();
  }
  async getDocuments(corpusId: string, ids: readonly string[]) {
    const ref = await this.remoteOf(corpusId);
    if (!ref) return this.local.getDocuments(corpusId, ids);
    return (await this.clientFor(ref.server)).documents(ref.corpusId, ids);
  }
  async listDocuments(corpusId: string, options: { after?: string; limit: number }) {
    const ref = await this.remoteOf(corpusId);
    if (!ref) return this.local.listDocuments(corpusId, options);
    return (await this.clientFor(ref.server)).listDocuments(ref.corpusId, options);
  }
  async getQueries(corpusId: string): Promise<CorpusQuery[]> {
    const ref = await this.remoteOf(corpusId);
    if (!ref) return this.local.getQueries(corpusId);
    return this.once(`queries ${corpusId}`, async () => (await this.clientFor(ref.server)).queries(ref.corpusId));
  }
  async getQrels(corpusId: string): Promise<Qrel[]> {
    const ref = await this.remoteOf(corpusId);
    if (!ref) return this.local.getQrels(corpusId);
    return this.once(`qrels ${corpusId}`, async () => (await this.clientFor(ref.server)).qrels(ref.corpusId));
  }
  async getBm25Index(corpusId: string) {
    return (await this.remoteOf(corpusId)) ? undefined : this.local.getBm25Index(corpusId);
  }

  /** Drops what was fetched for a corpus. */
  forget(corpusId: string): void {
    this.cached.delete(`queries ${corpusId}`);
    this.cached.delete(`qrels ${corpusId}`);
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let promise = this.cached.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = load();
      this.cached.set(key, promise);
      promise.catch(() => this.cached.get(key) === promise && this.cached.delete(key));
    }
    return promise;
  }
}
