import { create } from 'zustand';
import {
  DEFAULT_DECOMPOSITION_CONFIG,
  DEFAULT_HDS_CONFIG,
  DEFAULT_IRCOT_CONFIG,
  DEFAULT_SINGLE_SHOT_CONFIG,
  CUSTOM_PROVIDER,
  IN_BROWSER_PROVIDER,
  switchProvider,
  withApiKey,
  type AgentSettings,
  type HdsConfig,
  type LlmProviderSettings,
  type PipelineSpec,
} from '../../core/index.ts';
import { getSettingsStore } from '../services/stores.ts';
import { useSearchSettings } from '../shared/search-settings.ts';

/** The HDS settings the page edits (the prompts keep their defaults). */
export type HdsBudget = Pick<
  HdsConfig,
  | 'maxTurns' | 'maxParallelQueries' | 'kPerQuery' | 'evidenceBudget' | 'maxSearchCalls' | 'retrievalConcurrency' | 'fallbackToFinalPrompt' | 'allowPartialRetrievalFailures'
  | 'promptVariant' | 'planStop' | 'planGuard' | 'finalAnswer' | 'repeatedBlock' | 'finalContext' | 'questionSearchK'
>;

/** Baseline settings the page edits. */
export interface BaselineSettings {
  singleShotK: number;
  ircotKPerStep: number;
  ircotMaxSteps: number;
  decompositionMaxSubquestions: number;
  decompositionTopK: number;
}

/** Provider choices: the presets, a custom endpoint, or an in-browser model. */
export const CUSTOM_PRESET = CUSTOM_PROVIDER;
export const IN_BROWSER = IN_BROWSER_PROVIDER;

const DEFAULT_PROVIDER: LlmProviderSettings = { kind: 'openai-compatible', presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: '' };
const DEFAULT_BUDGET: HdsBudget = {
  maxTurns: DEFAULT_HDS_CONFIG.maxTurns,
  maxParallelQueries: DEFAULT_HDS_CONFIG.maxParallelQueries,
  kPerQuery: DEFAULT_HDS_CONFIG.kPerQuery,
  evidenceBudget: DEFAULT_HDS_CONFIG.evidenceBudget,
  maxSearchCalls: DEFAULT_HDS_CONFIG.maxSearchCalls,
  retrievalConcurrency: DEFAULT_HDS_CONFIG.retrievalConcurrency,
  fallbackToFinalPrompt: DEFAULT_HDS_CONFIG.fallbackToFinalPrompt,
  allowPartialRetrievalFailures: DEFAULT_HDS_CONFIG.allowPartialRetrievalFailures,
  promptVariant: DEFAULT_HDS_CONFIG.promptVariant,
  planStop: DEFAULT_HDS_CONFIG.planStop,
  planGuard: DEFAULT_HDS_CONFIG.planGuard,
  finalAnswer: DEFAULT_HDS_CONFIG.finalAnswer,
  repeatedBlock: DEFAULT_HDS_CONFIG.repeatedBlock,
  finalContext: DEFAULT_HDS_CONFIG.finalContext,
  questionSearchK: DEFAULT_HDS_CONFIG.questionSearchK,
};
const DEFAULT_BASELINES: BaselineSettings = {
  singleShotK: DEFAULT_SINGLE_SHOT_CONFIG.k,
  ircotKPerStep: DEFAULT_IRCOT_CONFIG.kPerStep,
  ircotMaxSteps: DEFAULT_IRCOT_CONFIG.maxSteps,
  decompositionMaxSubquestions: DEFAULT_DECOMPOSITION_CONFIG.maxSubquestions,
  decompositionTopK: DEFAULT_DECOMPOSITION_CONFIG.topK,
};

/** The record saved in the SettingsStore; `spec` is the retriever, owned by the search-settings store. */
interface UiSettings {
  budget: HdsBudget;
  spec: PipelineSpec;
  baselines: BaselineSettings;
}

interface SettingsState extends Omit<UiSettings, 'spec'> {
  loaded: boolean;
  provider: LlmProviderSettings;
  /** API keys by preset id (this browser only). */
  apiKeys: Record<string, string>;
  /** The last settings of the providers not in use, by provider choice (switching back restores them). */
  others: Record<string, LlmProviderSettings>;
  load(): Promise<void>;
  /** Switches to a preset, `custom` or the in-browser model. */
  choosePreset(id: string): void;
  setProvider(patch: Partial<LlmProviderSettings>): void;
  setBudget(patch: Partial<HdsBudget>): void;
  /** Sets the agent's retriever (in the search-settings store) and saves it. */
  setSpec(spec: PipelineSpec): void;
  setBaselines(patch: Partial<BaselineSettings>): void;
  /** Writes pending changes now (before a run). */
  flush(): Promise<void>;
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;

export const useHdsSettings = create<SettingsState>((set, get) => {
  const persist = async () => {
    const { provider, apiKeys, others, budget, baselines, loaded } = get();
    if (!loaded) return;
    const spec = useSearchSettings.getState().deepSearch;
    const store = await getSettingsStore();
    await store.saveLlmSettings(provider, apiKeys, others);
    await store.saveUiSettings({ budget, spec, baselines } satisfies UiSettings);
  };
  const schedule = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void persist().catch((e: unknown) => console.warn('Could not save the Deep search settings', e)), 300);
  };
  return {
    loaded: false,
    provider: DEFAULT_PROVIDER,
    apiKeys: {},
    others: {},
    budget: DEFAULT_BUDGET,
    baselines: DEFAULT_BASELINES,
    async load() {
      if (get().loaded) return;
      const store = await getSettingsStore();
      const [llm, ui] = await Promise.all([store.getLlmSettings(), store.getUiSettings() as Promise<Partial<UiSettings> | undefined>]);
      if (ui?.spec) useSearchSettings.getState().setDeepSearchSpec(ui.spec);
      set({
        loaded: true,
        ...(llm ? { provider: llm.active, apiKeys: llm.apiKeys, others: llm.others ?? {} } : {}),
        ...(ui?.budget ? { budget: { ...DEFAULT_BUDGET, ...ui.budget } } : {}),
        ...(ui?.baselines ? { baselines: { ...DEFAULT_BASELINES, ...ui.baselines } } : {}),
      });
    },
    choosePreset(id) {
      const { provider, others, apiKeys } = get();
      const next = switchProvider({ active: provider, others }, id, apiKeys);
      set({ provider: next.active, others: next.others });
      schedule();
    },
    setProvider(patch) {
      const provider = { ...get().provider, ...patch } as LlmProviderSettings;
      const apiKeys = provider.kind === 'openai-compatible' && 'apiKey' in patch ? withApiKey(get().apiKeys, provider.presetId, provider.apiKey ?? '') : get().apiKeys;
      set({ provider, apiKeys });
      schedule();
    },
    setBudget(patch) {
      set({ budget: { ...get().budget, ...patch } });
      schedule();
    },
    setSpec(spec) {
      useSearchSettings.getState().setDeepSearchSpec(spec);
      schedule();
    },
    setBaselines(patch) {
      set({ baselines: { ...get().baselines, ...patch } });
      schedule();
    },
    async flush() {
      clearTimeout(saveTimer);
      await persist();
    },
  };
});

/** Every method's settings from the page's state; the answer mode is the same for every method (H12). */
export function agentSettingsOf(budget: HdsBudget, baselines: BaselineSettings): AgentSettings {
  const { finalAnswer } = budget;
  return {
    hds: { ...budget },
    singleShot: { k: baselines.singleShotK, finalAnswer },
    ircot: { kPerStep: baselines.ircotKPerStep, maxSteps: baselines.ircotMaxSteps, finalAnswer },
    decomposition: { maxSubquestions: baselines.decompositionMaxSubquestions, topK: baselines.decompositionTopK, finalAnswer },
    oracleContext: { finalAnswer },
  };
}
