import { useQuery } from '@tanstack/react-query';
import {
  EMBEDDING_MODEL_PRESETS,
  presenceInServedFiles,
  probeAppModel,
  readServedModelFiles,
  type AppModelPresence,
  type EmbeddingDtype,
} from '../../core/index.ts';

const modelsPath = () => `${import.meta.env.BASE_URL}models/`;

/** The files this app serves under /models/ (its server's list); undefined while asked, null when it keeps none. */
export function useServedModelFiles(): ReadonlySet<string> | null | undefined {
  const { data } = useQuery({
    queryKey: ['app-model-files'],
    queryFn: async () => (await readServedModelFiles(modelsPath())) ?? null,
    staleTime: Infinity,
  });
  return data;
}

/** Which preset models this app serves under /models/ for `dtype` (files put in public/models/ before the build). */
export function useAppModelPresence(dtype: EmbeddingDtype): Map<string, AppModelPresence> | undefined {
  const served = useServedModelFiles();
  const { data } = useQuery({
    queryKey: ['app-model-presence', dtype, served === null ? 'probed' : 'listed'],
    enabled: served !== undefined,
    queryFn: async () => {
      // Without the server's list each file is asked for with HEAD (a missing one is logged as a 404).
      const answers = served
        ? EMBEDDING_MODEL_PRESETS.map((p) => presenceInServedFiles(served, p.modelId, dtype))
        : await Promise.all(EMBEDDING_MODEL_PRESETS.map((p) => probeAppModel(modelsPath(), p.modelId, dtype)));
      return new Map(answers.map((a) => [a.modelId, a]));
    },
    staleTime: Infinity,
  });
  return data;
}
