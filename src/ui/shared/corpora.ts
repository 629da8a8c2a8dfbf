import { useMutation, useQuery } from '@tanstack/react-query';
import { deleteCorpus } from '../../core/index.ts';
import { corporaKey, storageKey } from '../services/query-keys.ts';
import { getCorpusRemoval, getCorpusStore, getStorageInfo } from '../services/stores.ts';
import { forgetSharedVectors } from '../services/vector-broker.ts';
import { getRetrievalWorker } from '../services/workers.ts';
import { announceCorporaChanged } from './corpora-channel.ts';
import { useLoadStore } from './load-store.ts';

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
    mutationFn: async (id: string) =>
      deleteCorpus(id, await getCorpusRemoval(), async () => {
        forgetSharedVectors(id);
        await getRetrievalWorker().forget(id);
        const load = useLoadStore.getState();
        if (load.state.status === 'done' && load.state.result.corpus.id === id) load.dismiss();
      }),
    onSettled: announceCorporaChanged,
  });
}
