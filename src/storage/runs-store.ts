import type { IDBPDatabase } from 'idb';
import { checkRunName, summarizeRun, type RunRecord, type RunStore, type RunSummary } from '../core/index.ts';
import type { WorkbenchDb, WorkbenchWriteTx } from './database.ts';
import { guardQuota } from './quota.ts';
import { rankingsKey, type StoredRunRankings, type StoredRunSummary } from './runs-schema.ts';

/** RunStore over IndexedDB: a summary row (listed by corpus) and a rankings row per run, written together. */
export class IdbRunStore implements RunStore {
  constructor(private readonly db: IDBPDatabase<WorkbenchDb>) {}

  async saveRun(record: RunRecord): Promise<void> {
    if (!record.id || record.id.includes('\u0000')) throw new Error(`Invalid run id '${record.id}'`);
    const summary: StoredRunSummary = { ...summarizeRun(record), row: 'summary' };
    const rankings: StoredRunRankings = { id: rankingsKey(record.id), row: 'rankings', runId: record.id, rankings: record.rankings };
    await guardQuota(async () => {
      const tx = this.db.transaction('runs', 'readwrite');
      await Promise.all([tx.store.put(summary), tx.store.put(rankings), tx.done]);
    }, `The run “${record.name}” was not saved; runs and corpora stored before are intact.`);
  }

  async listRuns(corpusId: string): Promise<RunSummary[]> {
    const rows = await this.db.getAllFromIndex('runs', 'corpusId', corpusId);
    return rows
      .filter((row): row is StoredRunSummary => row.row === 'summary')
      .map(toSummary)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const tx = this.db.transaction('runs');
    const [summary, rankings] = await Promise.all([tx.store.get(id), tx.store.get(rankingsKey(id)), tx.done]);
    if (summary?.row !== 'summary') return undefined;
    const { rankedQueryCount: _, ...rest } = toSummary(summary);
    return { ...rest, rankings: rankings?.row === 'rankings' ? rankings.rankings : [] };
  }

  async renameRun(id: string, name: string): Promise<void> {
    const trimmed = checkRunName(name);
    const tx = this.db.transaction('runs', 'readwrite');
    const row = await tx.store.get(id);
    if (row?.row !== 'summary') throw new Error(`No run ${id}`);
    await Promise.all([tx.store.put({ ...row, name: trimmed }), tx.done]);
  }

  async deleteRun(id: string): Promise<void> {
    const tx = this.db.transaction('runs', 'readwrite');
    await Promise.all([tx.store.delete(id), tx.store.delete(rankingsKey(id)), tx.done]);
  }

  async deleteRuns(ids: readonly string[]): Promise<number> {
    const unique = [...new Set(ids)];
    const tx = this.db.transaction('runs', 'readwrite');
    // Counted and deleted in the same transaction: a failure leaves every run in place.
    const found = await Promise.all(unique.map((id) => tx.store.getKey(id)));
    await Promise.all([...unique.flatMap((id) => [tx.store.delete(id), tx.store.delete(rankingsKey(id))]), tx.done]);
    return found.filter((key) => key !== undefined).length;
  }

  async deleteRunsOfCorpus(corpusId: string): Promise<number> {
    const tx = this.db.transaction('runs', 'readwrite');
    const [count] = await Promise.all([deleteCorpusRunRows(tx as unknown as WorkbenchWriteTx, corpusId), tx.done]);
    return count;
  }
}

/** Deletes a corpus's runs (summary and rankings rows) within `tx` (which spans `runs`); resolves to how many. */
export async function deleteCorpusRunRows(tx: WorkbenchWriteTx, corpusId: string): Promise<number> {
  const store = tx.objectStore('runs');
  const ids = await store.index('corpusId').getAllKeys(corpusId);
  await Promise.all(ids.flatMap((id) => [store.delete(id), store.delete(rankingsKey(id))]));
  return ids.length;
}

function toSummary(row: StoredRunSummary): RunSummary {
  const { row: _, ...summary } = row;
  return summary;
}
