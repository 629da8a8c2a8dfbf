import type { IDBPDatabase } from 'idb';
import type { CorpusRemoval } from '../core/index.ts';
import { deleteCorpusAgentRunRows } from './agent-run-store.ts';
import type { WorkbenchDb, WorkbenchWriteTx } from './database.ts';
import { CORPUS_STORES, deleteCorpusRows } from './idb-corpus-store.ts';
import { deleteCorpusRunRows } from './runs-store.ts';
import { deleteCorpusVectorRows, VECTOR_STORES } from './vectors-store.ts';

/** Removes a corpus with its embedding sets, vectors, runs and HDS runs in one IndexedDB transaction. */
export class IdbCorpusRemoval implements CorpusRemoval {
  constructor(private readonly db: IDBPDatabase<WorkbenchDb>) {}

  async removeCorpus(corpusId: string): Promise<void> {
    const tx = this.db.transaction([...CORPUS_STORES, ...VECTOR_STORES, 'runs', 'hdsRuns'], 'readwrite') as unknown as WorkbenchWriteTx;
    try {
      await Promise.all([deleteCorpusRows(tx, corpusId), deleteCorpusVectorRows(tx, corpusId), deleteCorpusRunRows(tx, corpusId), deleteCorpusAgentRunRows(tx, corpusId)]);
    } catch (error) {
      // Whatever part failed, nothing of the corpus is deleted.
      try {
        tx.abort();
      } catch {
        // already finished
      }
      await tx.done.catch(() => undefined);
      throw error;
    }
    await tx.done;
  }
}
