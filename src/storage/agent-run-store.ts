import type { IDBPDatabase } from 'idb';
import { checkAgentRunName, stripSecrets, summarizeAgentRun, type AgentRunStore, type AgentRunSummary, type SavedAgentRun } from '../core/index.ts';
import type { WorkbenchDb, WorkbenchWriteTx } from './database.ts';
import type { StoredHdsRun } from './hds-schema.ts';
import { guardQuota } from './quota.ts';

/** Saved HDS and baseline runs in IndexedDB. */
export class IdbAgentRunStore implements AgentRunStore {
  /** `secrets`: the API keys to scrub from saved runs (the settings store's `secrets`). */
  constructor(
    private readonly db: IDBPDatabase<WorkbenchDb>,
    private readonly secrets: () => Promise<readonly string[]>,
  ) {}

  async save(run: SavedAgentRun): Promise<void> {
    const clean = stripSecrets(run, await this.secrets());
    await guardQuota(() => this.db.put('hdsRuns', clean as StoredHdsRun), `The run “${run.name}” was not saved; everything stored before is intact.`);
  }

  get(id: string): Promise<SavedAgentRun | undefined> {
    return this.db.get('hdsRuns', id);
  }

  async list(corpusId?: string): Promise<AgentRunSummary[]> {
    const rows = corpusId === undefined ? await this.db.getAll('hdsRuns') : await this.db.getAllFromIndex('hdsRuns', 'corpusId', corpusId);
    return rows.map(summarizeAgentRun).sort((a, b) => b.createdAt - a.createdAt);
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = checkAgentRunName(name);
    const tx = this.db.transaction('hdsRuns', 'readwrite');
    const run = await tx.store.get(id);
    if (!run) throw new Error(`No saved run ${id}`);
    await tx.store.put({ ...run, name: trimmed });
    await tx.done;
  }

  delete(id: string): Promise<void> {
    return this.db.delete('hdsRuns', id);
  }

  async deleteCorpusRuns(corpusId: string): Promise<void> {
    const tx = this.db.transaction('hdsRuns', 'readwrite');
    await Promise.all([deleteCorpusAgentRunRows(tx as unknown as WorkbenchWriteTx, corpusId), tx.done]);
  }
}

/** Deletes a corpus's HDS runs within `tx` (which spans `hdsRuns`). */
export async function deleteCorpusAgentRunRows(tx: WorkbenchWriteTx, corpusId: string): Promise<void> {
  const store = tx.objectStore('hdsRuns');
  await Promise.all((await store.index('corpusId').getAllKeys(corpusId)).map((key) => store.delete(key)));
}
