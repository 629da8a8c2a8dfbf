// Remote corpora (served by `dsw serve`) in a worker: the worker's corpus store answers them from their server,
// and each corpus's retrieval resources route to the local index or to that server.
import { RemoteAwareCorpusStore, routedResources, WorkbenchServerClient, type CorpusStore, type RemoteCorpusRef, type RetrievalResources } from '../core/index.ts';
import { IdbCorpusStore, type IdbSettingsStore, type openWorkbenchDb } from '../storage/index.ts';

type Db = Awaited<ReturnType<typeof openWorkbenchDb>>;

/** The worker's corpus store: local corpora from IndexedDB, remote ones through their server with the stored token. */
export function remoteAwareStore(db: Db, settings: IdbSettingsStore): RemoteAwareCorpusStore {
  return new RemoteAwareCorpusStore(new IdbCorpusStore(db), async (server) => new WorkbenchServerClient({ server, token: (await settings.serverTokens())[server] }));
}

/** Where `corpusId` is served from, when `store` knows remote corpora and it is one. */
export async function remoteOf(store: CorpusStore, corpusId: string): Promise<RemoteCorpusRef | null> {
  return store instanceof RemoteAwareCorpusStore ? store.remoteOf(corpusId) : null;
}

/** Resources for `corpusId`: `local()` (the worker's cache) for a stored corpus, the server for a remote one. */
export function resourcesOf(corpusId: string, store: CorpusStore, local: () => RetrievalResources): RetrievalResources {
  return store instanceof RemoteAwareCorpusStore ? routedResources(corpusId, store, local) : local();
}

/** Drops what the store remembers of a remote corpus. */
export function forgetRemote(store: CorpusStore, corpusId: string): void {
  if (store instanceof RemoteAwareCorpusStore) store.forget(corpusId);
}
