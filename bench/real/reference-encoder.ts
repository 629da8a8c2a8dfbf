// Workbench vectors against sentence-transformers' `encode` on the same texts: the encoder fidelity check shared
// by `npm run bench` (section "real models") and `npm run test:real`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { documentText, loadEmbedder, type EmbeddingDtype } from '../../src/core/index.ts';
import { runPeer, venvPython } from '../../scripts/python-env.mjs';
import { REAL_ENCODERS, encoderFolder, encoderPresent, sentenceTransformersFolder, sentenceTransformersPresent, type RealEncoder } from '../../scripts/real-encoders.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Peer outputs are cached here (git-ignored), keyed by what produced them. */
export const CACHE_DIR = path.join(ROOT, '.tmp/real-models');
export const FIDELITY_TEXTS = 300;

export { REAL_ENCODERS, type RealEncoder };

/** Why the real-model checks cannot run for `encoder`, or null when they can. */
export function realModelMissing(encoder: RealEncoder): string | null {
  if (!encoderPresent(ROOT, encoder)) return `${encoder.presetId} is not in public/models/: run \`npm run models\` first`;
  if (!venvPython(ROOT)) return 'the Python peers are not installed (.venv-models/): run `npm run models` first';
  if (!sentenceTransformersPresent(ROOT, encoder)) return `the sentence-transformers folder of ${encoder.name} is not unpacked: run \`npm run models\` first`;
  return null;
}

/**
 * The encoders REAL_ENCODERS names (comma-separated slugs, names or preset ids, e.g. `mpnet`), all by default;
 * an unknown name is an error that lists the known ones.
 */
export function selectedEncoders(wanted = process.env.REAL_ENCODERS): readonly RealEncoder[] {
  if (!wanted) return REAL_ENCODERS;
  return wanted.split(',').map((w) => {
    const found = REAL_ENCODERS.find((e) => [e.slug, e.name, e.presetId].includes(w.trim()));
    if (!found) throw new Error(`REAL_ENCODERS: "${w}" is none of ${REAL_ENCODERS.map((e) => e.slug).join(', ')}`);
    return found;
  });
}

function readJsonl(file: string): Array<Record<string, string>> {
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
}

/** The first `count` texts of a BEIR folder as the workbench embeds them: documents first, then queries. */
export function fidelityTexts(dir: string, count = FIDELITY_TEXTS): string[] {
  const docs = readJsonl(path.join(dir, 'corpus.jsonl')).map((d) => documentText({ title: d.title ?? '', text: d.text ?? '' }));
  const queries = readJsonl(path.join(dir, 'queries.jsonl')).map((q) => q.text ?? '');
  return [...docs, ...queries].filter((t) => t.trim() !== '').slice(0, count);
}

/** sentence-transformers `encode` of `texts` (normalised), from the Python peer; cached by model and texts. */
export function referenceVectors(encoder: RealEncoder, texts: string[]): Float32Array {
  const key = crypto.createHash('sha256').update(encoder.presetId).update(JSON.stringify(texts)).digest('hex').slice(0, 16);
  const out = path.join(CACHE_DIR, `encode-${key}.f32`);
  if (!fs.existsSync(out)) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const input = path.join(CACHE_DIR, `encode-${key}.json`);
    fs.writeFileSync(input, JSON.stringify(texts));
    runPeer(ROOT, 'encode.py', [sentenceTransformersFolder(ROOT, encoder), input, out], { quiet: true });
  }
  const bytes = fs.readFileSync(out);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** The workbench's vectors of `texts` (transformers.js in Node, the preset's settings, no prefix). */
export async function workbenchVectors(encoder: RealEncoder, dtype: EmbeddingDtype, texts: string[]): Promise<Float32Array> {
  const embedder = await loadEmbedder({
    modelId: encoder.presetId,
    localModelPath: `${path.dirname(path.dirname(encoderFolder(ROOT, encoder)))}${path.sep}`,
    dtype,
    prefixes: { query: '', passage: '' },
  });
  try {
    return await embedder.embedTexts(texts, 'passage');
  } finally {
    await embedder.dispose();
  }
}

/** Cosine of each row pair of two row-major matrices of the same shape. */
export function rowCosines(a: Float32Array, b: Float32Array, rows: number): number[] {
  if (a.length !== b.length || a.length % rows !== 0) throw new Error(`matrices differ in shape: ${a.length} vs ${b.length} values for ${rows} rows`);
  const dims = a.length / rows;
  const cosines: number[] = [];
  for (let r = 0; r < rows; r++) {
    let dot = 0, na = 0, nb = 0;
    for (let i = r * dims; i < (r + 1) * dims; i++) {
      dot += a[i]! * b[i]!;
      na += a[i]! * a[i]!;
      nb += b[i]! * b[i]!;
    }
    cosines.push(dot / Math.sqrt(na * nb));
  }
  return cosines;
}

/** The lowest cosine and the text it belongs to. */
export function worstCosine(cosines: number[], texts: string[]): { cosine: number; text: string } {
  let worst = 0;
  cosines.forEach((c, i) => (c < cosines[worst]! ? (worst = i) : undefined));
  return { cosine: cosines[worst]!, text: texts[worst]! };
}
