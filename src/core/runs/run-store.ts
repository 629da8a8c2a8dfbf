import type { RunRecord, RunSummary } from './run-record.ts';

/** Saved runs: IndexedDB in the browser (src/storage/runs-store.ts), memory in tests. Each method is one transaction. */
export interface RunStore {
  /** Stores a run (replaces a run with the same id). */
  saveRun(record: RunRecord): Promise<void>;
  /** The runs of a corpus without their rankings, newest first. */
  listRuns(corpusId: string): Promise<RunSummary[]>;
  /** One run with its rankings. */
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Renames a run; throws on an empty name or an unknown id. */
  renameRun(id: string, name: string): Promise<void>;
  /** Removes a run (no error when it does not exist). */
  deleteRun(id: string): Promise<void>;
  /** Removes the given runs in one transaction (all or none); returns how many of them existed. */
  deleteRuns(ids: readonly string[]): Promise<number>;
  /** Removes every run of a corpus; returns how many there were. */
  deleteRunsOfCorpus(corpusId: string): Promise<number>;
}
