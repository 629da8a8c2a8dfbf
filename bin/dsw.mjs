#!/usr/bin/env node
// The `dsw` command: runs the TypeScript CLI through tsx, so `npx dsw` works right after `npm ci`.
import { register } from 'tsx/esm/api';

import { buildKernels } from '../scripts/build-kernels.mjs';

register();
await buildKernels({ onlyIfMissing: true }); // the dense kernels' generated module, on a fresh checkout
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
});
