import { useQuery } from '@tanstack/react-query';
import { EMBEDDING_MODEL_PRESETS, probeAppModel, type AppModelPresence, type EmbeddingDtype } from '../../core/index.ts';

/** Which preset models this app serves under /models/ for `dtype` (files put in public/models/ before the build). */
export function useAppModelPresence(dtype: EmbeddingDtype): Map<string, AppModelPresence> | undefined {
  const { data } = useQuery({
    queryKey: ['app-model-presence', dtype],
    queryFn: async () => {
      const modelsPath = `${import.meta.env.BASE_URL}models/`;
      const answers = await Promise.all(EMBEDDING_MODEL_PRESETS.map((p) => probeAppModel(modelsPath, p.modelId, dtype)));
      return new Map(answers.map((a) => [a.modelId, a]));
    },
    staleTime: Infinity,
  });
  return data;
}
