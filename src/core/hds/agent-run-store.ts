import { formatAgentRunsFile, newSavedRunId, parseAgentRunsFile, type SavedAgentRun } from './saved-run.ts';

/** What the saved-runs list shows of a run, without its records. */
export interface AgentRunSummary {
  id: string;
  name: string;
  type: SavedAgentRun['type'];
  corpusId: string;
  corpusName: string;
  createdAt: number;
  updatedAt: number;
  status: SavedAgentRun['status'];
  /** Model name. */
  model: string;
  /** Method of a question run; `batch` otherwise. */
  method: string;
  /** Question runs: the question. Batches: `n questions × m variants`. */
  detail: string;
  /** Batches: pairs done and in all. */
  progress?: { done: number; total: number };
}

/**
 * Saved HDS and baseline runs: IndexedDB in the browser (src/storage/agent-run-store.ts), memory in tests and the
 * CLI. `save` removes credential fields and every stored API key from the run first. Each method is one transaction.
 */
export interface AgentRunStore {
  /** Saves (or replaces) a run, secrets removed. */
  save(run: SavedAgentRun): Promise<void>;
  get(id: string): Promise<SavedAgentRun | undefined>;
  /** Summaries, newest first; only the runs over `corpusId` when given. */
  list(corpusId?: string): Promise<AgentRunSummary[]>;
  /** Renames a run; throws on an empty name or an unknown id. */
  rename(id: string, name: string): Promise<void>;
  /** Removes a run (no error when it does not exist). */
  delete(id: string): Promise<void>;
  /** Removes the runs over a corpus. */
  deleteCorpusRuns(corpusId: string): Promise<void>;
}

/** A trimmed, non-empty run name; throws otherwise. */
export function checkAgentRunName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('A run name cannot be empty');
  return trimmed;
}

/** The list entry of a run. */
export function summarizeAgentRun(run: SavedAgentRun): AgentRunSummary {
  const common = {
    id: run.id,
    name: run.name,
    type: run.type,
    corpusId: run.corpusId,
    corpusName: run.corpusName,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    status: run.status,
    model: run.llm.model,
  };
  if (run.type === 'question') return { ...common, method: run.method, detail: run.run.question };
  return {
    ...common,
    method: 'batch',
    detail: `${run.questions.length} question(s) × ${run.variants.length} method(s)`,
    progress: { done: run.items.length, total: run.questions.length * run.variants.length },
  };
}

/** The export file of the given runs (all when `ids` is omitted; unknown ids are skipped), without `secrets`. */
export async function exportAgentRuns(store: AgentRunStore, secrets: readonly string[], ids?: readonly string[]): Promise<string> {
  const wanted = ids ?? (await store.list()).map((s) => s.id);
  const runs = (await Promise.all(wanted.map((id) => store.get(id)))).filter((r): r is SavedAgentRun => !!r);
  return formatAgentRunsFile(runs, secrets);
}

/**
 * Imports an export file; a run whose id is already taken gets a new id. Runs over a corpus this store does not
 * have are kept (they replay without it). An imported batch cannot be running here: it becomes resumable as
 * cancelled. Returns the imported runs as saved.
 */
export async function importAgentRuns(store: AgentRunStore, text: string): Promise<SavedAgentRun[]> {
  const saved: SavedAgentRun[] = [];
  for (const run of parseAgentRunsFile(text)) {
    const taken = await store.get(run.id);
    const copy: SavedAgentRun = { ...run, id: taken ? newSavedRunId() : run.id, status: run.status === 'running' ? 'cancelled' : run.status };
    await store.save(copy);
    saved.push(copy);
  }
  return saved;
}
