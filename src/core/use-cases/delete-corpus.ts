import type { AgentRunStore } from '../hds/index.ts';
import type { RunStore } from '../runs/index.ts';
import type { CorpusStore, VectorStore } from '../storage/index.ts';

/**
 * Removes a corpus with everything made from it (embedding sets and vectors, runs, HDS runs) in one transaction:
 * all of it goes, or nothing does. IndexedDB in the browser (src/storage/corpus-removal.ts), memory in tests.
 */
export interface CorpusRemoval {
  removeCorpus(corpusId: string): Promise<void>;
}

/** Deletes a corpus and what was made from it, at once; then `afterwards` (hosts drop caches there). */
export async function deleteCorpus(corpusId: string, removal: CorpusRemoval, afterwards?: (corpusId: string) => void | Promise<void>): Promise<void> {
  await removal.removeCorpus(corpusId);
  await afterwards?.(corpusId);
}

/** CorpusRemoval over memory stores (tests, the CLI): their deletions run back to back, with nothing in between. */
export class MemoryCorpusRemoval implements CorpusRemoval {
  constructor(
    private readonly stores: {
      corpora: Pick<CorpusStore, 'deleteCorpus'>;
      vectors?: Pick<VectorStore, 'deleteCorpusSets'>;
      runs?: Pick<RunStore, 'deleteRunsOfCorpus'>;
      agentRuns?: Pick<AgentRunStore, 'deleteCorpusRuns'>;
    },
  ) {}

  async removeCorpus(corpusId: string): Promise<void> {
    const { corpora, vectors, runs, agentRuns } = this.stores;
    await Promise.all([corpora.deleteCorpus(corpusId), vectors?.deleteCorpusSets(corpusId), runs?.deleteRunsOfCorpus(corpusId), agentRuns?.deleteCorpusRuns(corpusId)]);
  }
}
