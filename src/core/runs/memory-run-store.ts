import { checkRunName, summarizeRun, type RunRecord, type RunSummary } from './run-record.ts';
import type { RunStore } from './run-store.ts';

/** RunStore in memory (tests, the CLI). Records are copied in and out, as a database would. */
export class MemoryRunStore implements RunStore {
  private readonly runs = new Map<string, RunRecord>();

  async saveRun(record: RunRecord): Promise<void> {
    this.runs.set(record.id, structuredClone(record));
  }

  async listRuns(corpusId: string): Promise<RunSummary[]> {
    return [...this.runs.values()]
      .filter((r) => r.corpusId === corpusId)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((r) => structuredClone(summarizeRun(r)));
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const record = this.runs.get(id);
    return record && structuredClone(record);
  }

  async renameRun(id: string, name: string): Promise<void> {
    const record = this.runs.get(id);
    if (!record) throw new Error(`No run ${id}`);
    this.runs.set(id, { ...record, name: checkRunName(name) });
  }

  async deleteRun(id: string): Promise<void> {
    this.runs.delete(id);
  }

  async deleteRuns(ids: readonly string[]): Promise<number> {
    let count = 0;
    for (const id of new Set(ids)) if (this.runs.delete(id)) count++;
    return count;
  }

  async deleteRunsOfCorpus(corpusId: string): Promise<number> {
    let count = 0;
    for (const [id, r] of this.runs) {
      if (r.corpusId === corpusId) {
        this.runs.delete(id);
        count++;
      }
    }
    return count;
  }
}
