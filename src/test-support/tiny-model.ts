// The generated tiny BERT for tests: real inference through transformers.js, as with any downloaded model.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/make-tiny-model.mjs', import.meta.url));

/** The repository's `public/models/tiny-bert`, generated when absent (what `npm run gen:model` makes). */
export function ensureBundledTinyModel(): string {
  const dir = fileURLToPath(new URL('../../public/models/tiny-bert', import.meta.url));
  if (!fs.existsSync(path.join(dir, 'onnx', 'model.onnx'))) execFileSync(process.execPath, [SCRIPT, dir], { stdio: 'pipe' });
  return dir;
}

/** A fresh copy of tiny-bert in a temporary folder: `root/tiny-bert/…`. */
export function makeTinyModel(): { root: string; cleanup(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-tiny-model-'));
  execFileSync(process.execPath, [SCRIPT, path.join(root, 'tiny-bert')], { stdio: 'pipe' });
  return { root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}
