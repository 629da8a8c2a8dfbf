// npm run models: obtains the real models for offline use and for the real-model checks.
// Each step in scripts/models/*.mjs exports `run({ root, log })`; steps run in name order and are idempotent.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const stepsDir = path.join(root, 'scripts/models');
const only = process.argv.slice(2);
const steps = fs.readdirSync(stepsDir).filter((f) => f.endsWith('.mjs')).sort()
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
const log = (msg) => console.log(`[models] ${msg}`);

for (const step of steps) {
  log(`step ${step}`);
  const mod = await import(pathToFileURL(path.join(stepsDir, step)).href);
  await mod.run({ root, log });
}
log('done');
