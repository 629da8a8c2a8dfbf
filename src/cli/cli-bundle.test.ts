import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../test-support/capture-io.ts';
import { main } from './main.ts';

const root = path.resolve(import.meta.dirname, '../..');
const outDir = path.join(root, '.tmp', `cli-bundle-${process.pid}`);

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

// Runs the bundle's main in a plain Node process (no tsx loader), as bin/dsw.mjs does when the bundle is fresh.
function runBundle(args: string[]): string {
  const script = `const { main } = await import(${JSON.stringify(path.join(outDir, 'main.js'))});
process.exitCode = await main(${JSON.stringify(args)}, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), cwd: ${JSON.stringify(root)}, env: { DSW_CACHE_DIR: 'off' } });`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

describe('the bundled CLI (npm run build:cli)', () => {
  it('lists its inputs and answers as the TypeScript CLI does, loading command chunks on demand', async () => {
    execFileSync(process.execPath, [path.join(root, 'scripts/build-cli.mjs'), outDir], { stdio: 'pipe' });
    const inputs = JSON.parse(fs.readFileSync(path.join(outDir, 'inputs.json'), 'utf8')) as string[];
    expect(inputs).toContain('src/cli/main.ts');
    expect(inputs).toContain('src/core/dense/float32-filter-scan.ts');
    expect(inputs.every((file) => fs.existsSync(path.join(root, file)))).toBe(true);
    // one chunk per command, not one file holding them all
    expect(fs.readdirSync(outDir).filter((f) => /^(search|serve|hds)-.*\.js$/.test(f))).toHaveLength(3);

    const args = ['search', '--dataset', 'e2e/fixtures/tiny-beir', '--query', 'tide mill wheel', '--json'];
    const io = captureIo(root, { DSW_CACHE_DIR: 'off' });
    expect(await main(args, io)).toBe(0);
    expect(runBundle(args)).toBe(io.stdout);
    expect(runBundle(['help', 'serve'])).toContain('Usage: dsw serve');
  });
});
