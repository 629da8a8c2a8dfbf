import type { IDBPDatabase } from 'idb';
import {
  formatAgentRunsFile,
  newSavedRunId,
  parseAgentRunsFile,
  stripSecrets,
  type LlmProviderSettings,
  type SavedAgentRun,
} from '../core/index.ts';
import type { WorkbenchDb } from './database.ts';
import { HDS_UI_SETTINGS_KEY, LLM_SETTINGS_KEY, type StoredHdsRun, type StoredLlmSettings } from './hds-schema.ts';
import { guardQuota } from './quota.ts';

/** What the saved-runs list shows of a run, without its records. */
export interface HdsRunSummary {
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


/** Saved HDS and baseline runs, and the model settings, in IndexedDB. Keys never leave the `settings` store. */
export class HdsStore {
  constructor(private readonly db: IDBPDatabase<WorkbenchDb>) {}

  /** Saves (or replaces) a run, after removing credential fields and any stored API key from it. */
  async save(run: SavedAgentRun): Promise<void> {
    const clean = stripSecrets(run, await this.secrets());
    await guardQuota(() => this.db.put('hdsRuns', clean as StoredHdsRun), `The run “${run.name}” was not saved; everything stored before is intact.`);
  }

  get(id: string): Promise<SavedAgentRun | undefined> {
    return this.db.get('hdsRuns', id);
  }

  /** Summaries, newest first; only the runs over `corpusId` when given. */
  async list(corpusId?: string): Promise<HdsRunSummary[]> {
    const rows = corpusId === undefined ? await this.db.getAll('hdsRuns') : await this.db.getAllFromIndex('hdsRuns', 'corpusId', corpusId);
    return rows.map(summarize).sort((a, b) => b.createdAt - a.createdAt);
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) throw new Error('A run name cannot be empty');
    const tx = this.db.transaction('hdsRuns', 'readwrite');
    const run = await tx.store.get(id);
    if (!run) throw new Error(`No saved run ${id}`);
    await tx.store.put({ ...run, name: trimmed });
    await tx.done;
  }

  delete(id: string): Promise<void> {
    return this.db.delete('hdsRuns', id);
  }

  /** Removes the runs of a deleted corpus. */
  async deleteCorpusRuns(corpusId: string): Promise<void> {
    const tx = this.db.transaction('hdsRuns', 'readwrite');
    for (const key of await tx.store.index('corpusId').getAllKeys(corpusId)) await tx.store.delete(key);
    await tx.done;
  }

  /** The export file of the given runs (all when `ids` is omitted), without any secret. */
  async exportRuns(ids?: readonly string[]): Promise<string> {
    const runs = ids ? (await Promise.all(ids.map((id) => this.get(id)))).filter((r): r is SavedAgentRun => !!r) : await this.db.getAll('hdsRuns');
    return formatAgentRunsFile(runs, await this.secrets());
  }

  /**
   * Imports an export file; a run whose id is already taken gets a new id. Runs over a corpus this browser does
   * not have are kept (they replay without it). Returns the imported runs as saved.
   */
  async importRuns(text: string): Promise<SavedAgentRun[]> {
    const runs = parseAgentRunsFile(text);
    const saved: SavedAgentRun[] = [];
    for (const run of runs) {
      const taken = await this.get(run.id);
      // An imported batch cannot be running here: it is resumable as cancelled.
      const copy: SavedAgentRun = { ...run, id: taken ? newSavedRunId() : run.id, status: run.status === 'running' ? 'cancelled' : run.status };
      await this.save(copy);
      saved.push(copy);
    }
    return saved;
  }

  /** The model settings, with the active preset's key filled in; undefined before the first save. */
  async getLlmSettings(): Promise<StoredLlmSettings | undefined> {
    const stored = (await this.db.get('settings', LLM_SETTINGS_KEY)) as StoredLlmSettings | undefined;
    if (!stored) return undefined;
    return { ...stored, active: withKey(stored.active, stored.apiKeys) };
  }

  /** Saves the model settings; the active endpoint's key is kept under its preset id. */
  async saveLlmSettings(active: LlmProviderSettings, apiKeys: Record<string, string> = {}): Promise<void> {
    const keys = { ...apiKeys };
    let endpoint = active;
    if (active.kind === 'openai-compatible') {
      const { apiKey, ...rest } = active;
      if (apiKey !== undefined) {
        if (apiKey.trim()) keys[active.presetId] = apiKey.trim();
        else delete keys[active.presetId];
      }
      endpoint = rest;
    }
    const value: StoredLlmSettings = { active: endpoint, apiKeys: keys };
    await this.db.put('settings', value, LLM_SETTINGS_KEY);
  }

  /** The page's other settings, as last saved (the caller checks their shape). */
  getUiSettings(): Promise<unknown> {
    return this.db.get('settings', HDS_UI_SETTINGS_KEY);
  }

  /** Saves the page's other settings; credential fields are dropped. */
  async saveUiSettings(value: unknown): Promise<void> {
    await this.db.put('settings', stripSecrets(value, await this.secrets()), HDS_UI_SETTINGS_KEY);
  }

  /** Every API key stored in this browser (to scrub from anything saved or exported). */
  async secrets(): Promise<string[]> {
    const stored = (await this.db.get('settings', LLM_SETTINGS_KEY)) as StoredLlmSettings | undefined;
    return Object.values(stored?.apiKeys ?? {}).filter((k) => k.trim() !== '');
  }
}

function withKey(active: LlmProviderSettings, keys: Record<string, string>): LlmProviderSettings {
  if (active.kind !== 'openai-compatible') return active;
  const key = keys[active.presetId];
  return key ? { ...active, apiKey: key } : active;
}

function summarize(run: SavedAgentRun): HdsRunSummary {
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
