// Run comparisons (randomisation tests are 10,000 permutations × queries × measures): off the UI thread.
import * as Comlink from 'comlink';
import { buildQrelsMap, compareRunRankings, type RunRecord } from '../core/index.ts';
import { IdbRunStore, openWorkbenchDb } from '../storage/index.ts';
import { remoteAwareStore } from './corpus-sources.ts';
import type { CompareWorkerApi } from './compare-worker-api.ts';

const dbPromise = openWorkbenchDb();

const api: CompareWorkerApi = {
  async compare(request, onProgress) {
    const db = await dbPromise;
    const runs = new IdbRunStore(db);
    const load = async (id: string): Promise<RunRecord> => {
      const run = await runs.getRun(id);
      if (!run) throw new Error(`The run ${id} no longer exists`);
      if (run.corpusId !== request.corpusId) throw new Error(`The run “${run.name}” belongs to another corpus`);
      return run;
    };
    const [baseline, others, qrels] = await Promise.all([
      load(request.baselineId),
      Promise.all(request.runIds.map(load)),
      remoteAwareStore(db).getQrels(request.corpusId),
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

Comlink.expose(api);
