import type { LlmModel } from './llm-paths.mjs';
export declare function ensureGguf(options: {
  paths: { models: string; downloads: string };
  log: (message: string) => void;
  model: LlmModel;
}): string;
