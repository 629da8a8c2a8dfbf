export declare const LLM_MODEL_ID: string;
export declare const LLM_MODEL_FILE: string;
export declare const LLM_MODEL_SHA256: string;
export declare const LLM_MODEL_PACKAGE: { name: string; version: string; parts: number };
export declare const LLM_RUNTIME_PACKAGES: Record<string, string>;
export declare const LLM_RUNTIME_ENTRY: string;
export declare function llmPaths(root: string): { base: string; models: string; runtime: string; downloads: string };
export interface LlmModel {
  id: string;
  sha256: string;
  package: { name: string; version: string; parts: number };
}
export declare const LLM_MODELS: readonly LlmModel[];
export declare function selectedLlmModel(id?: string): LlmModel;
