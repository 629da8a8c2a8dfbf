import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RunRecord } from '../../core/index.ts';
import { queryClient } from '../services/query-client.ts';
import { runKey, runsKey, storageKey } from '../services/query-keys.ts';
import { getRunStore } from '../services/stores.ts';

/** Saves a run and refreshes the lists that show it (for any page that makes runs, e.g. sweeps). */
export async function saveRun(record: RunRecord): Promise<void> {
  await (await getRunStore()).saveRun(record);
  await refreshRuns(record.corpusId, record.id);
}

/** Refreshes the lists that show runs saved elsewhere (by a worker or a use case), and one run when given. */
export async function refreshRuns(corpusId: string, runId?: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: runsKey(corpusId) }),
    ...(runId ? [queryClient.invalidateQueries({ queryKey: runKey(runId) })] : []),
    queryClient.invalidateQueries({ queryKey: storageKey }),
  ]);
}

/** The runs of a corpus (summaries, newest first). */
export function useRuns(corpusId: string | null) {
  return useQuery({
    queryKey: runsKey(corpusId),
    queryFn: async () => (await getRunStore()).listRuns(corpusId!),
    enabled: !!corpusId,
  });
}

/** One run with its rankings. */
export function useRun(id: string | null) {
  return useQuery({
    queryKey: runKey(id),
    queryFn: async () => (await (await getRunStore()).getRun(id!)) ?? null,
    enabled: !!id,
  });
}

export function useRenameRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string; corpusId: string }) => (await getRunStore()).renameRun(id, name),
    onSettled: (_data, _error, { id, corpusId }) =>
      Promise.all([client.invalidateQueries({ queryKey: runsKey(corpusId) }), client.invalidateQueries({ queryKey: runKey(id) })]),
  });
}

/** Deletes several runs in one storage transaction (all or none). */
export function useDeleteRuns() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids }: { ids: readonly string[]; corpusId: string }) => (await getRunStore()).deleteRuns(ids),
    onSettled: (_data, _error, { ids, corpusId }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: runsKey(corpusId) }),
        ...ids.map((id) => client.removeQueries({ queryKey: runKey(id) })),
        client.invalidateQueries({ queryKey: storageKey }),
      ]),
  });
}
