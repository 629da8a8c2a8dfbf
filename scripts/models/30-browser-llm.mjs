// Step of `npm run models` (alone: `npm run models -- browser-llm`): the in-browser LLM. The 0.5B GGUF of the LLM
// step, read by transformers (dequantised to fp32) and exported to ONNX for transformers.js in
// public/models/<id>/ (fp32 with external data, and 4-bit weights). Idempotent: a complete export is kept.
import fs from 'node:fs';
import path from 'node:path';
import { BROWSER_LLM, BROWSER_LLM_FILES, browserLlmFolder, browserLlmPresent } from '../browser-llm.mjs';
import { fileSha256 } from '../file-sha256.mjs';
import { ensureGguf } from '../llm-gguf.mjs';
import { LLM_MODELS, llmPaths } from '../llm-paths.mjs';
import { ensurePythonEnv, runPeer } from '../python-env.mjs';

export async function run({ root, log }) {
  const out = browserLlmFolder(root);
  if (browserLlmPresent(root)) {
    log(`${BROWSER_LLM.modelId}: present in public/models/, kept`);
    return;
  }
  const model = LLM_MODELS.find((m) => m.id === BROWSER_LLM.gguf);
  const gguf = ensureGguf({ paths: llmPaths(root), log, model });
  ensurePythonEnv({ root, log });
  ensurePythonEnv({ root, log, requirements: 'bench/peers/requirements-browser-llm.txt' });
  log(`${BROWSER_LLM.modelId}: exporting ${path.relative(root, gguf)} to ${path.relative(root, out)}/ (about 3.4 GB; several minutes)`);
  fs.rmSync(out, { recursive: true, force: true });
  process.stdout.write(runPeer(root, 'export_browser_llm.py', [gguf, out]));
  const recordFile = path.join(out, 'export.json');
  const record = JSON.parse(fs.readFileSync(recordFile, 'utf8'));
  record.gguf_sha256 = model.sha256;
  record.files = Object.fromEntries(
    BROWSER_LLM_FILES.map((f) => {
      const file = path.join(out, f);
      fs.chmodSync(file, 0o644);
      return [f, { size: fs.statSync(file).size, sha256: fileSha256(file) }];
    }),
  );
  // Written last: its `files` is what marks the export complete.
  fs.writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  log(`${BROWSER_LLM.modelId}: written (${BROWSER_LLM_FILES.length} files, sha256s in export.json)`);
}
