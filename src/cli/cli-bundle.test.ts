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

// bin/dsw.mjs in a scratch root (inside the checkout, so tsx resolves) whose bundle and sources only say who ran.
function scratchRoot() {
  const dir = path.join(root, '.tmp', `bin-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(root, 'bin/dsw.mjs'), path.join(dir, 'bin/dsw.mjs'));
  write('scripts/build-kernels.mjs', 'export async function buildKernels() {}\n');
  write('src/cli/main.ts', "export async function main(): Promise<number> { process.stdout.write('sources'); return 0; }\n");
  write('src/cli/input.ts', '// an input of the bundle\n');
  write('dist-cli/main.js', "export async function main() { process.stdout.write('bundle'); return 0; }\n");
  write('dist-cli/inputs.json', JSON.stringify(['src/cli/input.ts', 'src/cli/main.ts']));
  const past = new Date(Date.now() - 60_000);
  for (const file of ['src/cli/input.ts', 'src/cli/main.ts']) fs.utimesSync(path.join(dir, file), past, past);
  const run = (env: Record<string, string> = {}) =>
    execFileSync(process.execPath, [path.join(dir, 'bin/dsw.mjs')], { encoding: 'utf8', env: { ...process.env, DSW_NO_BUNDLE: '', ...env } });
  return { dir, run };
}

describe('bin/dsw.mjs', () => {
  it('runs the bundle only while no input is newer than it or gone; else the sources through tsx', () => {
    const { dir, run } = scratchRoot();
    try {
      expect(run()).toBe('bundle');
      expect(run({ DSW_NO_BUNDLE: '1' })).toBe('sources');
      fs.utimesSync(path.join(dir, 'src/cli/input.ts'), new Date(), new Date(Date.now() + 5_000));
      expect(run()).toBe('sources');
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(path.join(dir, 'src/cli/input.ts'), past, past);
      expect(run()).toBe('bundle');
      fs.rmSync(path.join(dir, 'src/cli/input.ts'));
      expect(run()).toBe('sources');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

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
