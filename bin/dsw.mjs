#!/usr/bin/env node
// The `dsw` command: runs the bundled CLI (dist-cli/, `npm run build:cli`) while it is fresh, otherwise the
// TypeScript CLI through tsx, so `npx dsw` works right after `npm ci` and never runs code older than the sources.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

// The bundle's entry when no file that went into it has changed (or gone) since it was built.
function freshBundle() {
  const entry = path.join(root, 'dist-cli', 'main.js');
  try {
    const built = fs.statSync(entry).mtimeMs;
    const inputs = JSON.parse(fs.readFileSync(path.join(root, 'dist-cli', 'inputs.json'), 'utf8'));
    return inputs.every((file) => fs.statSync(path.join(root, file)).mtimeMs <= built) ? entry : null;
  } catch {
    return null;
  }
}

async function loadMain() {
  const bundle = process.env.DSW_NO_BUNDLE ? null : freshBundle();
  if (bundle) return import(bundle);
  const { register } = await import('tsx/esm/api');
  register();
  const { buildKernels } = await import('../scripts/build-kernels.mjs');
  await buildKernels({ onlyIfMissing: true }); // the dense kernels' generated module, on a fresh checkout
  return import('../src/cli/main.ts');
}

const { main } = await loadMain();
process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
});
