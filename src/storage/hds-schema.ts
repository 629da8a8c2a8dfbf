// Row types of the HDS stores. Owned by the HDS feature.
import type { LlmProviderSettings, SavedAgentRun } from '../core/index.ts';

/** A saved HDS (or baseline) run over one question or a question set, exactly as exported (no secrets). */
export type StoredHdsRun = SavedAgentRun;

/** Key of the model settings in the `settings` store. */
export const LLM_SETTINGS_KEY = 'llm';

/** Key of the Deep search page's other settings (HDS budgets, retriever, baselines; nothing secret). */
export const HDS_UI_SETTINGS_KEY = 'hds-ui';

/** The model settings of this browser: the endpoint in use and one API key per preset. Never exported. */
export interface StoredLlmSettings {
  /** The endpoint or in-browser model in use (its `apiKey` is filled from `apiKeys` when read). */
  active: LlmProviderSettings;
  /** API keys by preset id (`openai`, `openrouter`, `custom`, …), so switching presets does not send a key elsewhere. */
  apiKeys: Record<string, string>;
}
