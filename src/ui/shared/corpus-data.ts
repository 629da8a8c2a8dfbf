import { useQuery } from '@tanstack/react-query';
import { buildQrelsMap, type CorpusQuery, type QrelsMap } from '../../core/index.ts';
import { qrelsKey, queriesKey } from '../services/query-keys.ts';
import { getCorpusStore } from '../services/stores.ts';

/** A corpus's judgements as a QrelsMap (null until loaded; empty when the corpus has none). */
export function useQrels(corpusId: string | null) {
  return useQuery({
    queryKey: qrelsKey(corpusId),
    queryFn: async (): Promise<QrelsMap> => buildQrelsMap(await (await getCorpusStore()).getQrels(corpusId!)),
    enabled: !!corpusId,
    staleTime: Infinity,
  });
}

/** A corpus's queries by id. */
export function useQueries(corpusId: string | null) {
  return useQuery({
    queryKey: queriesKey(corpusId),
    queryFn: async (): Promise<Map<string, CorpusQuery>> =>
      new Map((await (await getCorpusStore()).getQueries(corpusId!)).map((q) => [q.id, q])),
    enabled: !!corpusId,
    staleTime: Infinity,
  });
}

/** Whether any query has a relevant judgement (else runs are saved unscored). */
export function hasRelevant(qrels: QrelsMap | undefined): boolean {
  for (const judgements of qrels?.values() ?? []) for (const rel of judgements.values()) if (rel > 0) return true;
  return false;
}
