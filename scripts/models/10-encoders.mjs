// Step of `npm run models`: the real sentence encoders (scripts/real-encoders.mjs), exported from their
// sentence-transformers folders to the transformers.js layout in public/models/<preset id>/ (fp32 and dynamic-int8 ONNX).
import fs from 'node:fs';
import path from 'node:path';
import { ensurePythonEnv, runPeer } from '../python-env.mjs';
import { REAL_ENCODERS, encoderFolder, encoderPresent, ensureSentenceTransformersFolder } from '../real-encoders.mjs';

export async function run({ root, log }) {
  // The bench peers and the fidelity checks need the venv and the sentence-transformers folders even when the
  // exported models are already present.
  ensurePythonEnv({ root, log });
  for (const encoder of REAL_ENCODERS) {
    const source = ensureSentenceTransformersFolder({ root, log, encoder });
    if (encoderPresent(root, encoder)) {
      log(`${encoder.presetId}: present in public/models/, kept`);
      continue;
    }
    const out = encoderFolder(root, encoder);
    log(`${encoder.presetId}: exporting ${source} to ${path.relative(root, out)}/`);
    fs.rmSync(out, { recursive: true, force: true });
    process.stdout.write(runPeer(root, 'export_encoder.py', [source, out]));
  }
}
