import * as Comlink from 'comlink';
import type { CorpusRecord, IngestSummary, LoadCorpusOptions, LoadProgress } from '../../core/index.ts';
import type { LoadedCorpusInfo, PickedFile } from '../../workers/corpus-worker-api.ts';
import { withAbortPort } from '../services/abort-port.ts';
import { announceCorporaChanged } from './corpora-channel.ts';
import { createJobStore, JobFailure, type JobState } from './job-store.ts';
import { requestPersistence } from '../services/stores.ts';
import { getCorpusWorker } from '../services/workers.ts';

/** A loaded corpus and the report of its load. */
export interface LoadResult {
  corpus: CorpusRecord;
  summary: IngestSummary;
}

/** The state of loading one corpus, shown by the progress and report views; a failed load may carry its summary. */
export type LoadState = JobState<{ name: string }, LoadProgress | null, LoadResult, IngestSummary>;

/** The corpus load of this page (one at a time). */
export const useLoadStore = createJobStore<{ name: string }, LoadProgress | null, LoadResult, IngestSummary>({ cancelMessage: 'Loading was cancelled' });

/** Loads files as a new corpus in the corpus worker; resolves with the corpus, or null (the state says why). */
export async function startLoad(files: PickedFile[], options: LoadCorpusOptions): Promise<CorpusRecord | null> {
  const result = await useLoadStore.getState().start({ name: options.name }, null, async ({ signal, progress }) => {
    void requestPersistence();
    try {
      const loaded = await withAbortPort<LoadedCorpusInfo>(signal, (port) =>
        getCorpusWorker().load(files, options, Comlink.proxy(progress), port && Comlink.transfer(port, [port])),
      );
      if (loaded.corpus === null) throw new JobFailure(loaded.message, loaded.summary);
      return { corpus: loaded.corpus, summary: loaded.summary };
    } finally {
      void announceCorporaChanged();
    }
  });
  return result?.corpus ?? null;
}
