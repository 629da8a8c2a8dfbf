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

const SERVER_TOKENS_KEY = 'workbench-server-tokens';

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
    return [...secretsOf(await this.stored()), ...Object.values(await this.serverTokens())];
  }

  /** Tokens of workbench servers (`dsw serve --token`), by server address. */
  async serverTokens(): Promise<Record<string, string>> {
    return ((await this.db.get('settings', SERVER_TOKENS_KEY)) as Record<string, string> | undefined) ?? {};
  }

  /** Keeps (or, when blank, forgets) the token of a server. */
  async saveServerToken(server: string, token: string): Promise<void> {
    const tokens = { ...(await this.serverTokens()) };
    if (token.trim()) tokens[server] = token.trim();
    else delete tokens[server];
    await this.db.put('settings', tokens, SERVER_TOKENS_KEY);
  }

  private async stored(): Promise<LlmSettingsRecord | undefined> {
    return (await this.db.get('settings', LLM_SETTINGS_KEY)) as LlmSettingsRecord | undefined;
  }
}
