// The real LLM of `npm run models` (GGUF + llama.cpp runtime in .llm/) as a loopback server, for the bench and the
// real-model tests. Nothing here is used by the app or by `npm test`.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LLM_MODEL_FILE, LLM_MODEL_ID, LLM_RUNTIME_ENTRY, llmPaths } from '../scripts/llm-paths.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
export const REAL_LLM_MODEL = LLM_MODEL_ID as string;

/** Why the real LLM cannot run here, or null when its model and runtime are present. */
export function realLlmMissing(): string | null {
  const paths = llmPaths(ROOT);
  const model = path.join(paths.models, LLM_MODEL_FILE);
  if (!fs.existsSync(model)) return `no real LLM: ${path.relative(ROOT, model)} is absent (run \`npm run models\`)`;
  if (!fs.existsSync(path.join(paths.runtime, LLM_RUNTIME_ENTRY))) return `no llama.cpp runtime in ${path.relative(ROOT, paths.runtime)} (run \`npm run models\`)`;
  return null;
}

export interface LlmServer {
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:8182/v1 */
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts `scripts/llm-server.mjs` on 127.0.0.1:`port` (under `nice` when `niceness` > 0) and waits until it answers (model loading takes a while). */
export async function startLlmServer(port: number, threads = 2, timeoutMs = 300_000, niceness = 0): Promise<LlmServer> {
  const args = [path.join(ROOT, 'scripts/llm-server.mjs'), '--port', String(port), '--threads', String(threads)];
  // niceness > 0: run under `nice -n <niceness>` (a machine shared with other jobs).
  const [command, argv] = niceness > 0 ? ['nice', ['-n', String(niceness), process.execPath, ...args]] : [process.execPath, args];
  const child: ChildProcess = spawn(command, argv, { stdio: ['ignore', 'inherit', 'inherit'] });
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? 1;
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      // llama.cpp may hold the main thread for a while; then it is killed.
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`the LLM server exited with code ${exited} before it answered`);
    try {
      const res = await fetch(`${base}/health`);
      if (res.ok) return { baseUrl: `${base}/v1`, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`the LLM server did not answer on ${base} within ${timeoutMs / 1000} s`);
}
