export declare const BROWSER_LLM: { modelId: string; gguf: string };
export declare const BROWSER_LLM_FILES: readonly string[];
export declare function browserLlmFolder(root: string): string;
export interface BrowserLlmRecord {
  exported_from: string;
  gguf_sha256: string;
  checks: Record<string, { prefill_max_abs_logit_diff: number; cached_step_max_abs_logit_diff: number; cached_step_same_argmax: boolean }>;
  reference: { messages: Array<{ role: string; content: string }>; prompt_ids: number[]; greedy_ids: number[]; greedy_text: string };
  files: Record<string, { size: number; sha256: string }>;
}
export declare function browserLlmRecord(root: string): BrowserLlmRecord | null;
export declare function browserLlmPresent(root: string): boolean;
