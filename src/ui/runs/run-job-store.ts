import * as Comlink from 'comlink';
import type { CorpusRecord, PipelineSpec, RunRecord } from '../../core/index.ts';
import { withAbortPort } from '../services/abort-port.ts';
import { createJobStore, type JobState } from '../shared/job-store.ts';
import { refreshRuns } from '../shared/runs.ts';
import { getRetrievalWorker } from '../services/workers.ts';

/** What a run of a query set needs. */
export interface RunJobRequest {
  corpus: CorpusRecord;
  spec: PipelineSpec;
  k: number;
  name: string;
  measures: string[];
}

/** Queries done; `saving` once the last one is done and the worker scores and saves the run. */
export interface RunJobProgress {
  done: number;
  total: number;
  saving: boolean;
}

/** The state of running a query set; kept outside the page so that a run survives switching pages. */
export type RunJobState = JobState<{ name: string; corpusId: string }, RunJobProgress, RunRecord>;

/** The progress after the worker reports `done` of `total` queries. */
export function runProgressOf(done: number, total: number): RunJobProgress {
  return { done, total, saving: done >= total };
}

export const useRunJobStore = createJobStore<{ name: string; corpusId: string }, RunJobProgress, RunRecord>({ cancelMessage: 'The run was cancelled' });

/** Runs the corpus's query set through a pipeline in the retrieval worker; the run is scored and saved. */
export async function startRun({ corpus, spec, k, name, measures }: RunJobRequest): Promise<void> {
  const info = { name, corpusId: corpus.id };
  await useRunJobStore.getState().start(info, { done: 0, total: corpus.queryCount, saving: false }, async ({ signal, progress }) => {
    const onProgress = (done: number, total: number) => progress(runProgressOf(done, total));
    const request = { corpusId: corpus.id, spec, k, name, measures };
    const record = await withAbortPort(signal, (port) =>
      getRetrievalWorker().runQuerySet(request, Comlink.proxy(onProgress), port && Comlink.transfer(port, [port])),
    );
    await refreshRuns(record.corpusId, record.id);
    return record;
  });
}
