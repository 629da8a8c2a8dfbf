// Row types of the HDS stores. Owned by the HDS feature.
import type { SavedAgentRun } from '../core/index.ts';

/** A saved HDS (or baseline) run over one question or a question set, exactly as exported (no secrets). */
export type StoredHdsRun = SavedAgentRun;

/** Key of the model settings in the `settings` store. */
export const LLM_SETTINGS_KEY = 'llm';

/** Key of the Deep search page's other settings (HDS budgets, retriever, baselines; nothing secret). */
export const HDS_UI_SETTINGS_KEY = 'hds-ui';
