import * as Comlink from 'comlink';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IdbVectorStore, openWorkbenchDb } from '../../storage/index.ts';
import type { EmbedWorkerApi } from '../../workers/embed-worker-api.ts';
import { storageKey } from './corpora.ts';
import { getRetrievalWorker } from './workers.ts';

let storePromise: Promise<IdbVectorStore> | null = null;
let embedWorker: Comlink.Remote<EmbedWorkerApi> | null = null;

/** The stored embedding sets and vectors of this browser. */
export function getVectorStore(): Promise<IdbVectorStore> {
  storePromise ??= openWorkbenchDb().then((db) => new IdbVectorStore(db));
  return storePromise;
}

/** The worker that embeds corpora (created on first use; it loads the model once and keeps it). */
export function getEmbedWorker(): Comlink.Remote<EmbedWorkerApi> {
  embedWorker ??= Comlink.wrap<EmbedWorkerApi>(
    new Worker(new URL('../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' }),
  );
  return embedWorker;
}

/** Query key of a corpus's embedding sets. */
export const embeddingSetsKey = (corpusId: string | null) => ['embedding-sets', corpusId] as const;
/** Query key of the model folders kept in this browser. */
export const modelFoldersKey = ['model-folders'] as const;

/** The embedding sets of a corpus (complete or not), newest first. */
export function useEmbeddingSets(corpusId: string | null) {
  return useQuery({
    queryKey: embeddingSetsKey(corpusId),
    queryFn: async () => (await getVectorStore()).listSets(corpusId!),
    enabled: !!corpusId,
  });
}

/** The complete embedding sets of a corpus: the ones dense pipelines can search. */
export function useSearchableSets(corpusId: string | null) {
  const sets = useEmbeddingSets(corpusId);
  return { ...sets, data: sets.data?.filter((s) => s.complete) };
}

/** Model folders kept in this browser. */
export function useModelFolders() {
  return useQuery({ queryKey: modelFoldersKey, queryFn: () => getEmbedWorker().listModelFolders() });
}

export function useDeleteEmbeddingSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ corpusId, modelKey }: { corpusId: string; modelKey: string }) => {
      await (await getVectorStore()).deleteSet(corpusId, modelKey);
      await getRetrievalWorker().forget(corpusId);
    },
    onSettled: (_data, _error, { corpusId }) =>
      Promise.all([client.invalidateQueries({ queryKey: embeddingSetsKey(corpusId) }), client.invalidateQueries({ queryKey: storageKey })]),
  });
}
