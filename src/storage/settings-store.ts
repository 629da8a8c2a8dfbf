import type { IDBPDatabase } from 'idb';
import {
  activeWithKey,
  llmSettingsRecord,
  secretsOf,
  stripSecrets,
  type LlmProviderSettings,
  type LlmSettingsRecord,
  type SettingsStore,
} from '../core/index.ts';
import type { WorkbenchDb } from './database.ts';
import { HDS_UI_SETTINGS_KEY, LLM_SETTINGS_KEY } from './hds-schema.ts';

/** Endpoint settings and API keys in IndexedDB's `settings` store. Keys never leave it. */
export class IdbSettingsStore implements SettingsStore {
  constructor(private readonly db: IDBPDatabase<WorkbenchDb>) {}

  async getLlmSettings(): Promise<LlmSettingsRecord | undefined> {
    const stored = await this.stored();
    return stored && activeWithKey(stored);
  }

  async saveLlmSettings(active: LlmProviderSettings, apiKeys: Record<string, string> = {}, others?: Record<string, LlmProviderSettings>): Promise<void> {
    await this.db.put('settings', llmSettingsRecord(active, apiKeys, others), LLM_SETTINGS_KEY);
  }

  getUiSettings(): Promise<unknown> {
    return this.db.get('settings', HDS_UI_SETTINGS_KEY);
  }

  async saveUiSettings(value: unknown): Promise<void> {
    await this.db.put('settings', stripSecrets(value, await this.secrets()), HDS_UI_SETTINGS_KEY);
  }

  async secrets(): Promise<string[]> {
    return secretsOf(await this.stored());
  }

  private async stored(): Promise<LlmSettingsRecord | undefined> {
    return (await this.db.get('settings', LLM_SETTINGS_KEY)) as LlmSettingsRecord | undefined;
  }
}
