import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { embeddingSetsKey, modelFoldersKey, storageKey } from '../services/query-keys.ts';
import { getCorpusStore, getVectorStore } from '../services/stores.ts';
import { forgetSharedVectors } from '../services/vector-broker.ts';
import { getEmbedWorker, getRetrievalWorker } from '../services/workers.ts';

/** The embedding sets of a corpus (complete or not), newest first. */
export function useEmbeddingSets(corpusId: string | null) {
  return useQuery({
    queryKey: embeddingSetsKey(corpusId),
    queryFn: async () => {
      // A remote corpus's sets are its server's (recorded when it was connected).
      const remote = (await (await getCorpusStore()).getCorpus(corpusId!))?.remote;
      return remote ? remote.embeddingSets : (await getVectorStore()).listSets(corpusId!);
    },
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
      forgetSharedVectors(corpusId);
      await getRetrievalWorker().forget(corpusId);
    },
    onSettled: (_data, _error, { corpusId }) =>
      Promise.all([client.invalidateQueries({ queryKey: embeddingSetsKey(corpusId) }), client.invalidateQueries({ queryKey: storageKey })]),
  });
}
