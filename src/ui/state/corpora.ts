import { useMutation, useQuery } from '@tanstack/react-query';
import { getRetrievalWorker } from './workers.ts';
import { getCorpusStore, getStorageInfo } from './storage.ts';
import { getRunStore } from './runs.ts';
import { announceCorporaChanged } from './corpora-channel.ts';
import { useLoadStore } from './load-store.ts';
import { getVectorStore } from './embeddings.ts';
import { getAgentRunStore } from '../hds/hds-services.ts';

export const corporaKey = ['corpora'] as const;
export const storageKey = ['storage'] as const;

export function useCorpora() {
  return useQuery({ queryKey: corporaKey, queryFn: async () => (await getCorpusStore()).listCorpora() });
}

export function useStorageInfo() {
  return useQuery({ queryKey: storageKey, queryFn: getStorageInfo });
}

export function useRenameCorpus() {
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => (await getCorpusStore()).renameCorpus(id, name),
    onSettled: announceCorporaChanged,
  });
}

export function useDeleteCorpus() {
  return useMutation({
    mutationFn: async (id: string) => {
      await (await getCorpusStore()).deleteCorpus(id);
      await (await getVectorStore()).deleteCorpusSets(id);
      await (await getRunStore()).deleteRunsOfCorpus(id);
      await (await getAgentRunStore()).deleteCorpusRuns(id);
      await getRetrievalWorker().forget(id);
      const load = useLoadStore.getState();
      if (load.state.status === 'done' && load.state.corpus.id === id) load.dismiss();
    },
    onSettled: announceCorporaChanged,
  });
}
