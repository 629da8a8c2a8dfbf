import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importViolations, type SourceFile } from './test-support/import-rules.ts';

const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string): SourceFile[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(entry.name) ? [{ path: rel, text: fs.readFileSync(path.join(root, rel), 'utf8') }] : [];
  });
}

describe('import rules', () => {
  it('hold over the whole tree: one door to the core and to storage, a pure core, pages apart', () => {
    const files = [...sources('src'), ...sources('e2e'), ...sources('bench')];
    expect(files.length).toBeGreaterThan(200);
    expect(importViolations(files)).toEqual([]);
  });

  it('catch each kind of violation', () => {
    const file = (p: string, specifier: string): SourceFile => ({ path: p, text: `import { x } from '${specifier}';\n` });
    const violations = importViolations([
      file('src/ui/runs/RunsPage.tsx', '../../core/dense/top-k.ts'),
      file('src/cli/commands/run.ts', '../../storage/database.ts'),
      file('src/core/eval/measures.ts', '../../ui/shared/format.ts'),
      file('src/ui/gqr/GqrLabPage.tsx', '../runs/RunsTable.tsx'),
      file('src/ui/shared/CorpusPicker.tsx', '../search/SearchPage.tsx'),
      // allowed:
      file('src/ui/runs/RunsPage.tsx', '../../core/index.ts'),
      file('src/ui/runs/RunsPage.tsx', '../shared/CorpusPicker.tsx'),
      file('src/storage/runs-store.ts', './database.ts'),
      file('src/ui/pages.tsx', './runs/RunsPage.tsx'),
    ]);
    expect(violations.map((v) => `${v.file}: ${v.rule}`)).toEqual([
      'src/ui/runs/RunsPage.tsx: hosts import the core only through src/core/index.ts',
      'src/cli/commands/run.ts: hosts import storage only through src/storage/index.ts',
      'src/core/eval/measures.ts: the core imports nothing outside src/core',
      'src/ui/gqr/GqrLabPage.tsx: a page never imports another page (share it through src/ui/shared)',
      'src/ui/shared/CorpusPicker.tsx: services and shared never import a page',
    ]);
  });
});
