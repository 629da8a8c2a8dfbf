// The stores a worker runs on, opened on first call: importing a worker module opens no database, and a test passes
// memory stores instead (see workers.test.ts).
import type { AgentRunStore, CorpusStore, RunStore, StorageAfterFailure, VectorStore } from '../core/index.ts';
import { IdbAgentRunStore, IdbRunStore, IdbSettingsStore, IdbVectorStore, openWorkbenchDb, storageAfterFailedLoad } from '../storage/index.ts';
import { remoteAwareStore } from './corpus-sources.ts';

export interface WorkerStores {
  corpora(): Promise<CorpusStore>;
  vectors(): Promise<VectorStore>;
  runs(): Promise<RunStore>;
  /** Saved HDS runs, scrubbed of the settings' keys. */
  agentRuns(): Promise<AgentRunStore>;
  /** After a load was refused for space: checks nothing of `corpusId` remains and measures what is stored. */
  afterFailedLoad(corpusId: string): Promise<StorageAfterFailure>;
}

/** Calls `make` once, on first use. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () => (value ??= make());
}

/** This worker's IndexedDB stores over one connection, opened on the first call of any of them. */
export function idbWorkerStores(): WorkerStores {
  const db = once(openWorkbenchDb);
  const settings = once(async () => new IdbSettingsStore(await db()));
  // Remote corpora (dsw serve) answer through their server.
  const corpora = once(async () => remoteAwareStore(await db(), await settings()));
  return {
    corpora,
    vectors: once(async () => new IdbVectorStore(await db())),
    runs: once(async () => new IdbRunStore(await db())),
    agentRuns: once(async () => {
      const keys = await settings();
      return new IdbAgentRunStore(await db(), () => keys.secrets());
    }),
    afterFailedLoad: async (corpusId) => storageAfterFailedLoad(await db(), await corpora(), corpusId),
  };
}
