import { checkAgentRunName, summarizeAgentRun, type AgentRunStore, type AgentRunSummary } from './agent-run-store.ts';
import { stripSecrets, type SavedAgentRun } from './saved-run.ts';

/** AgentRunStore in memory (tests, the CLI). Runs are copied in and out, as a database would. */
export class MemoryAgentRunStore implements AgentRunStore {
  private readonly runs = new Map<string, SavedAgentRun>();

  /** `secrets`: the API keys to scrub from saved runs (a SettingsStore's `secrets`). */
  constructor(private readonly secrets: () => Promise<readonly string[]> = async () => []) {}

  async save(run: SavedAgentRun): Promise<void> {
    this.runs.set(run.id, structuredClone(stripSecrets(run, await this.secrets())));
  }

  async get(id: string): Promise<SavedAgentRun | undefined> {
    const run = this.runs.get(id);
    return run && structuredClone(run);
  }

  async list(corpusId?: string): Promise<AgentRunSummary[]> {
    return [...this.runs.values()]
      .filter((r) => corpusId === undefined || r.corpusId === corpusId)
      .map(summarizeAgentRun)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = checkAgentRunName(name);
    const run = this.runs.get(id);
    if (!run) throw new Error(`No saved run ${id}`);
    this.runs.set(id, { ...run, name: trimmed });
  }

  async delete(id: string): Promise<void> {
    this.runs.delete(id);
  }

  async deleteCorpusRuns(corpusId: string): Promise<void> {
    for (const [id, run] of this.runs) if (run.corpusId === corpusId) this.runs.delete(id);
  }
}
