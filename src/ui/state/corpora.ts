import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRetrievalWorker } from './workers.ts';
import { getCorpusStore, getStorageInfo } from './storage.ts';
import { getRunStore } from './runs.ts';
import { getVectorStore } from './embeddings.ts';
import { getHdsStore } from '../hds/hds-services.ts';

export const corporaKey = ['corpora'] as const;
export const storageKey = ['storage'] as const;

export function useCorpora() {
  return useQuery({ queryKey: corporaKey, queryFn: async () => (await getCorpusStore()).listCorpora() });
}

export function useStorageInfo() {
  return useQuery({ queryKey: storageKey, queryFn: getStorageInfo });
}

export function useRenameCorpus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => (await getCorpusStore()).renameCorpus(id, name),
    onSettled: () => client.invalidateQueries({ queryKey: corporaKey }),
  });
}

export function useDeleteCorpus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await (await getCorpusStore()).deleteCorpus(id);
      await (await getVectorStore()).deleteCorpusSets(id);
      await (await getRunStore()).deleteRunsOfCorpus(id);
      await (await getHdsStore()).deleteCorpusRuns(id);
      await getRetrievalWorker().forget(id);
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: corporaKey }),
        client.invalidateQueries({ queryKey: storageKey }),
        client.invalidateQueries({ queryKey: ['runs'] }),
        client.invalidateQueries({ queryKey: ['embedding-sets'] }),
        client.invalidateQueries({ queryKey: ['hds-runs'] }),
      ]),
  });
}
