// Bundles the CLI (src/cli/main.ts and the core it imports) with esbuild into dist-cli/, one chunk per command so
// a start still loads only the command it runs. Packages stay imports of node_modules. bin/dsw.mjs runs the
// bundle while it is fresh (no input changed since it was built) and the TypeScript sources through tsx otherwise,
// so a stale bundle is never run; starting from the bundle skips tsx's loader and one module load per source file.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { buildKernels } from './build-kernels.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** Writes the bundle (main.js, the chunks and inputs.json, the list of bundled files) into `outDir`. */
export async function buildCliBundle(outDir = path.join(root, 'dist-cli')) {
  await buildKernels();
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: path.join(root, 'src/cli/main.ts') },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir: outDir,
    metafile: true,
    logLevel: 'warning',
  });
  // What bin/dsw.mjs compares the bundle's age with: every source file that went into it.
  const inputs = Object.keys(result.metafile.inputs);
  fs.writeFileSync(path.join(outDir, 'inputs.json'), JSON.stringify(inputs));
  return inputs;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : undefined; // default dist-cli/
  const inputs = await buildCliBundle(outDir);
  console.log(`${path.relative(root, outDir ?? path.join(root, 'dist-cli'))}/: ${inputs.length} source files bundled`);
}
