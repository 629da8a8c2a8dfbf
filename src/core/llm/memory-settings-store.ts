import { redactValue } from '../secrets/index.ts';
import type { LlmProviderSettings } from './provider-settings.ts';
import { activeWithKey, llmSettingsRecord, secretsOf, type LlmSettingsRecord, type SettingsStore } from './settings-store.ts';

/** SettingsStore in memory (tests). Values are copied in and out, as a database would. */
export class MemorySettingsStore implements SettingsStore {
  private llm: LlmSettingsRecord | undefined;
  private ui: unknown;

  async getLlmSettings(): Promise<LlmSettingsRecord | undefined> {
    return this.llm && activeWithKey(structuredClone(this.llm));
  }

  async saveLlmSettings(active: LlmProviderSettings, apiKeys: Record<string, string> = {}, others?: Record<string, LlmProviderSettings>): Promise<void> {
    this.llm = structuredClone(llmSettingsRecord(active, apiKeys, others));
  }

  async getUiSettings(): Promise<unknown> {
    return structuredClone(this.ui);
  }

  async saveUiSettings(value: unknown): Promise<void> {
    this.ui = structuredClone(redactValue(value, await this.secrets()));
  }

  async secrets(): Promise<string[]> {
    return secretsOf(this.llm);
  }
}
