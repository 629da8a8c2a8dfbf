// The in-browser LLM that `npm run models` makes: a GGUF of LLM_MODELS exported to the transformers.js layout in
// public/models/<modelId>/ (bench/peers/export_browser_llm.py). The id must match LOCAL_IN_BROWSER_MODELS in
// src/core/llm/in-browser-models.ts (a test checks it).
import fs from 'node:fs';
import path from 'node:path';

export const BROWSER_LLM = {
  modelId: 'local/qwen2.5-coder-0.5b-instruct',
  /** The LLM_MODELS entry it is exported from. */
  gguf: 'qwen2.5-coder-0.5b-instruct-q4_k_m',
};

/** The files the export writes, relative to the model folder; export.json records their sizes and sha256s. */
export const BROWSER_LLM_FILES = [
  'config.json',
  'generation_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx',
  'onnx/model.onnx_data',
  'onnx/model_q4.onnx',
];

/** public/models/<modelId>/ */
export function browserLlmFolder(root) {
  return path.join(root, 'public/models', BROWSER_LLM.modelId);
}

/** The export record (export.json), or null when the export has not finished. */
export function browserLlmRecord(root) {
  const file = path.join(browserLlmFolder(root), 'export.json');
  if (!fs.existsSync(file)) return null;
  const record = JSON.parse(fs.readFileSync(file, 'utf8'));
  return record.files ? record : null;
}

/** True when every file is there with the size export.json recorded. */
export function browserLlmPresent(root) {
  const record = browserLlmRecord(root);
  if (!record) return false;
  const folder = browserLlmFolder(root);
  return BROWSER_LLM_FILES.every((f) => fs.existsSync(path.join(folder, f)) && fs.statSync(path.join(folder, f)).size === record.files[f]?.size);
}
