// One corpus store for a worker in which remote corpora (served by `dsw serve`) answer from their server, and the
// retrieval resources that route each corpus to the local index or to that server.
import { RemoteAwareCorpusStore, routedResources, WorkbenchServerClient, type RetrievalResources } from '../core/index.ts';
import { IdbCorpusStore, IdbSettingsStore, type openWorkbenchDb } from '../storage/index.ts';

type Db = Awaited<ReturnType<typeof openWorkbenchDb>>;

/** The worker's corpus store: local corpora from IndexedDB, remote ones through their server with the stored token. */
export function remoteAwareStore(db: Db): RemoteAwareCorpusStore {
  const settings = new IdbSettingsStore(db);
  return new RemoteAwareCorpusStore(new IdbCorpusStore(db), async (server) => new WorkbenchServerClient({ server, token: (await settings.serverTokens())[server] }));
}

/** Resources for `corpusId`: `local()` (the worker's cache) for a stored corpus, the server for a remote one. */
export function resourcesOf(corpusId: string, store: RemoteAwareCorpusStore, local: () => RetrievalResources): RetrievalResources {
  return routedResources(corpusId, store, local);
}
