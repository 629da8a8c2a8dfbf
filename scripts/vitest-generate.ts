// Vitest global setup: generated sources the tests import (the dense kernels' WebAssembly module).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, 'build-kernels.mjs')], { stdio: 'inherit' });
}
