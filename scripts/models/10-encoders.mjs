// Step of `npm run models`: the real sentence encoders, exported from the Python packages that carry their
// weights to the transformers.js layout in public/models/<preset id>/ (fp32 and dynamic-int8 ONNX).
import fs from 'node:fs';
import path from 'node:path';
import { ensurePythonEnv, runPeer } from '../python-env.mjs';
import { REAL_ENCODERS, encoderFolder, encoderPresent, sentenceTransformersFolder } from '../real-encoders.mjs';

export async function run({ root, log }) {
  // The bench peers and the fidelity checks need the venv even when the exported models are already present.
  ensurePythonEnv({ root, log });
  const missing = REAL_ENCODERS.filter((encoder) => !encoderPresent(root, encoder));
  for (const encoder of REAL_ENCODERS) if (!missing.includes(encoder)) log(`${encoder.presetId}: present in public/models/, kept`);
  if (missing.length === 0) return;
  for (const encoder of missing) {
    const source = sentenceTransformersFolder(root, encoder);
    const out = encoderFolder(root, encoder);
    log(`${encoder.presetId}: exporting ${source} (Python package ${encoder.pythonPackage}) to ${path.relative(root, out)}/`);
    fs.rmSync(out, { recursive: true, force: true });
    process.stdout.write(runPeer(root, 'export_encoder.py', [source, out]));
  }
}
