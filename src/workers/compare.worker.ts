// Run comparisons (randomisation tests are 10,000 permutations × queries × measures): off the UI thread.
import { buildQrelsMap, compareRunRankings, type RunRecord } from '../core/index.ts';
import type { CompareWorkerApi } from './compare-worker-api.ts';
import { exposeInWorker } from './expose.ts';
import { idbWorkerStores, type WorkerStores } from './worker-stores.ts';

/** The compare worker's API over `stores`. */
export function createCompareWorkerApi(stores: Pick<WorkerStores, 'corpora' | 'runs'>): CompareWorkerApi {
  return {
    async compare(request, onProgress) {
      const runs = await stores.runs();
      const load = async (id: string): Promise<RunRecord> => {
        const run = await runs.getRun(id);
        if (!run) throw new Error(`The run ${id} no longer exists`);
        if (run.corpusId !== request.corpusId) throw new Error(`The run “${run.name}” belongs to another corpus`);
        return run;
      };
      const [baseline, others, qrels] = await Promise.all([
        load(request.baselineId),
        Promise.all(request.runIds.map(load)),
        (await stores.corpora()).getQrels(request.corpusId),
      ]);
      if (qrels.length === 0) throw new Error('This corpus has no relevance judgements (qrels), so runs cannot be scored or compared.');
      return compareRunRankings(
        baseline.rankings,
        others.map((r) => ({ key: r.id, rankings: r.rankings })),
        buildQrelsMap(qrels),
        request.measures,
        { permutations: request.permutations, seed: request.seed },
        onProgress,
      );
    },
  };
}

exposeInWorker(createCompareWorkerApi(idbWorkerStores()));
