// The stores of this browser over ONE database connection, opened on first use.
import { RemoteAwareCorpusStore, WorkbenchServerClient, type CorpusRecord } from '../../core/index.ts';
import {
  IdbAgentRunStore,
  IdbCorpusRemoval,
  IdbCorpusStore,
  IdbRunStore,
  IdbSettingsStore,
  IdbVectorStore,
  openWorkbenchDb,
  removeIncompleteCorpora,
} from '../../storage/index.ts';

let db: ReturnType<typeof openWorkbenchDb> | null = null;
const once = new Map<string, Promise<unknown>>();

/** The workbench database of this page (one connection for every store). */
export function database(): ReturnType<typeof openWorkbenchDb> {
  db ??= openWorkbenchDb();
  return db;
}

function store<T>(name: string, make: (d: Awaited<ReturnType<typeof openWorkbenchDb>>) => T | Promise<T>): Promise<T> {
  let promise = once.get(name) as Promise<T> | undefined;
  if (!promise) {
    promise = database().then(make);
    once.set(name, promise);
  }
  return promise;
}

/** The local corpus store; half-written corpora from a closed tab are removed on first use. */
function getLocalCorpusStore(): Promise<IdbCorpusStore> {
  return store('corpora', async (d) => {
    const corpora = new IdbCorpusStore(d);
    const removed = await removeIncompleteCorpora(corpora);
    if (removed.length > 0) console.info(`Removed half-loaded corpora: ${removed.join(', ')}`);
    return corpora;
  });
}

/** Every corpus, stored or remote: a remote corpus's documents, queries and qrels come from its server. */
export function getCorpusStore(): Promise<RemoteAwareCorpusStore> {
  return store('corpus-sources', async () => new RemoteAwareCorpusStore(await getLocalCorpusStore(), serverClient));
}

/** The client of a workbench server, with the token kept for it. */
export async function serverClient(server: string, token?: string): Promise<WorkbenchServerClient> {
  return new WorkbenchServerClient({ server, token: token ?? (await (await getSettingsStore()).serverTokens())[server] });
}

/** Keeps a remote corpus (its reference only) in the corpus list. */
export async function addRemoteCorpus(record: CorpusRecord & { remote: NonNullable<CorpusRecord['remote']> }): Promise<void> {
  await (await getLocalCorpusStore()).putRemoteCorpus(record);
}

/** Saved retrieval runs. */
export function getRunStore(): Promise<IdbRunStore> {
  return store('runs', (d) => new IdbRunStore(d));
}

/** Embedding sets and vectors. */
export function getVectorStore(): Promise<IdbVectorStore> {
  return store('vectors', (d) => new IdbVectorStore(d));
}

/** Endpoint settings and API keys. */
export function getSettingsStore(): Promise<IdbSettingsStore> {
  return store('settings', (d) => new IdbSettingsStore(d));
}

/** Saved HDS and baseline runs (scrubbed of the settings' keys). */
export function getAgentRunStore(): Promise<IdbAgentRunStore> {
  return store('agentRuns', async (d) => {
    const settings = await getSettingsStore();
    return new IdbAgentRunStore(d, () => settings.secrets());
  });
}

/** Removes a corpus with everything made from it, in one transaction. */
export function getCorpusRemoval(): Promise<IdbCorpusRemoval> {
  return store('removal', (d) => new IdbCorpusRemoval(d));
}

export interface StorageInfo {
  usage: number;
  quota: number;
  persisted: boolean;
}

/** How much this site stores and may store, and whether the browser keeps it under storage pressure. */
export async function getStorageInfo(): Promise<StorageInfo | null> {
  if (!navigator.storage?.estimate) return null;
  // Chromium counts IndexedDB in the estimate only once the page has opened it: after a browser start it says 0 B.
  await database();
  const { usage = 0, quota = 0 } = await navigator.storage.estimate();
  const persisted = (await navigator.storage.persisted?.()) ?? false;
  return { usage, quota, persisted };
}

/** Asks the browser not to evict this site's data; returns whether it agreed. */
export async function requestPersistence(): Promise<boolean> {
  return (await navigator.storage?.persist?.()) ?? false;
}
