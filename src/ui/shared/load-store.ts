import * as Comlink from 'comlink';
import { create } from 'zustand';
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

/** A load refused because its documents are stored already: the stored corpus and what to load as a copy. */
export interface RefusedDuplicate {
  existing: CorpusRecord;
  message: string;
  files: PickedFile[];
  options: LoadCorpusOptions;
}

/** The last load refused as a duplicate (null once answered or when another load starts). */
export const useRefusedDuplicate = create<{ refused: RefusedDuplicate | null }>(() => ({ refused: null }));

/** The state of loading one corpus, shown by the progress and report views; a failed load may carry its summary. */
export type LoadState = JobState<{ name: string }, LoadProgress | null, LoadResult, IngestSummary>;

/** The corpus load of this page (one at a time). */
export const useLoadStore = createJobStore<{ name: string }, LoadProgress | null, LoadResult, IngestSummary>({ cancelMessage: 'Loading was cancelled' });

/**
 * Loads files as a new corpus in the corpus worker; resolves with the corpus, or null (the state says why). The same
 * documents as a stored corpus are refused (nothing kept, `useRefusedDuplicate` holds the question) unless `copy`.
 */
export async function startLoad(files: PickedFile[], options: LoadCorpusOptions, copy = false): Promise<CorpusRecord | null> {
  useRefusedDuplicate.setState({ refused: null });
  const asked = { ...options, refuseDuplicates: !copy };
  let refused: RefusedDuplicate | null = null;
  const result = await useLoadStore.getState().start({ name: options.name }, null, async ({ signal, progress }) => {
    void requestPersistence();
    try {
      const loaded = await withAbortPort<LoadedCorpusInfo>(signal, (port) =>
        getCorpusWorker().load(files, asked, Comlink.proxy(progress), port && Comlink.transfer(port, [port])),
      );
      if (loaded.corpus === null && 'duplicateOf' in loaded) {
        refused = { existing: loaded.duplicateOf, message: loaded.message, files, options };
        throw new Error(loaded.message);
      }
      if (loaded.corpus === null) throw new JobFailure(loaded.message, loaded.summary);
      return { corpus: loaded.corpus, summary: loaded.summary };
    } finally {
      void announceCorporaChanged();
    }
  });
  if (refused) {
    useLoadStore.getState().dismiss();
    useRefusedDuplicate.setState({ refused });
  }
  return result?.corpus ?? null;
}

/** Loads the refused files again as a copy named “<name> (copy)”. */
export function loadRefusedAsCopy(): Promise<CorpusRecord | null> {
  const refused = useRefusedDuplicate.getState().refused;
  if (!refused) return Promise.resolve(null);
  return startLoad(refused.files, { ...refused.options, name: `${refused.options.name} (copy)` }, true);
}
