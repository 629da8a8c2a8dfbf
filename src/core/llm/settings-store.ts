import { withoutKey } from './provider-choice.ts';
import type { LlmProviderSettings } from './provider-settings.ts';

/** The model settings of a browser: the endpoint in use and one API key per preset. Never exported. */
export interface LlmSettingsRecord {
  /** The endpoint or in-browser model in use (its `apiKey` is filled from `apiKeys` when read). */
  active: LlmProviderSettings;
  /** API keys by preset id (`openai`, `openrouter`, `custom`, …), so switching presets does not send a key elsewhere. */
  apiKeys: Record<string, string>;
  /** The last settings of the providers not in use, by provider choice (preset id, `custom`, `transformers`); no keys. */
  others?: Record<string, LlmProviderSettings>;
}

/**
 * Endpoint settings and API keys, apart from everything else: IndexedDB's `settings` store in the browser
 * (src/storage/settings-store.ts), memory in tests. Keys never leave it except into a request's header.
 */
export interface SettingsStore {
  /** The model settings, with the active preset's key filled in; undefined before the first save. */
  getLlmSettings(): Promise<LlmSettingsRecord | undefined>;
  /**
   * Saves the model settings; the active endpoint's key (trimmed; blank forgets it) is kept under its preset id;
   * `others` are the settings of the providers not in use (keys dropped).
   */
  saveLlmSettings(active: LlmProviderSettings, apiKeys?: Record<string, string>, others?: Record<string, LlmProviderSettings>): Promise<void>;
  /** The Deep search page's other settings, as last saved (the caller checks their shape). */
  getUiSettings(): Promise<unknown>;
  /** Saves the page's other settings; credential fields and stored keys are dropped. */
  saveUiSettings(value: unknown): Promise<void>;
  /** Every API key stored (to scrub from anything saved or exported). */
  secrets(): Promise<string[]>;
}

/** `keys` with `key` stored for `presetId`: trimmed, or forgotten when blank. The one place keys are trimmed. */
export function withApiKey(keys: Readonly<Record<string, string>>, presetId: string, key: string): Record<string, string> {
  const next = { ...keys };
  if (key.trim()) next[presetId] = key.trim();
  else delete next[presetId];
  return next;
}

/** Splits the active endpoint from its key: what a settings store keeps (the other providers' settings keyless). */
export function llmSettingsRecord(
  active: LlmProviderSettings,
  apiKeys: Record<string, string> = {},
  others?: Record<string, LlmProviderSettings>,
): LlmSettingsRecord {
  const rest = others ? { others: Object.fromEntries(Object.entries(others).map(([choice, settings]) => [choice, withoutKey(settings)])) } : {};
  if (active.kind !== 'openai-compatible') return { active, apiKeys: { ...apiKeys }, ...rest };
  const { apiKey, ...endpoint } = active;
  return { active: endpoint, apiKeys: apiKey === undefined ? { ...apiKeys } : withApiKey(apiKeys, active.presetId, apiKey), ...rest };
}

/** The stored record as callers use it: the active preset's key filled in. */
export function activeWithKey(record: LlmSettingsRecord): LlmSettingsRecord {
  const { active, apiKeys } = record;
  if (active.kind !== 'openai-compatible') return record;
  const key = apiKeys[active.presetId];
  return key ? { active: { ...active, apiKey: key }, apiKeys } : record;
}

/** The keys of a record worth scrubbing (non-blank). */
export function secretsOf(record: LlmSettingsRecord | undefined): string[] {
  return Object.values(record?.apiKeys ?? {}).filter((k) => k.trim() !== '');
}
