import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_INDEX, exportedNames, namesImportedFromCore, unusedCoreExports } from './test-support/core-door.ts';
import { coreDomainOrder, importCircles, importViolations, packageOf, undeclaredImports, type SourceFile } from './test-support/import-rules.ts';

const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string, pattern = /\.(ts|tsx)$/): SourceFile[] {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(rel, pattern);
    return pattern.test(entry.name) ? [{ path: rel, text: fs.readFileSync(path.join(root, rel), 'utf8') }] : [];
  });
}

const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
/** The core's domains in their order, as DESIGN.md lists them. */
const domainOrder = coreDomainOrder(read('DESIGN.md'));

describe('import rules', () => {
  it('hold over the whole tree: one door to the core and to storage, a pure core, pages apart, workers behind services', () => {
    const files = [...sources('src'), ...sources('e2e'), ...sources('bench')];
    expect(files.length).toBeGreaterThan(200);
    expect(importViolations(files, domainOrder)).toEqual([]);
  });

  it("list every domain of the core once in DESIGN.md's order, each with its door", () => {
    const folders = fs.readdirSync(path.join(root, 'src/core'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect([...domainOrder].sort()).toEqual(folders.sort());
    expect(new Set(domainOrder).size).toBe(domainOrder.length);
    for (const domain of domainOrder) expect(fs.existsSync(path.join(root, `src/core/${domain}/index.ts`)), `src/core/${domain}/index.ts`).toBe(true);
    expect(coreDomainOrder("## Other\n1. `x` — no\n## The core's domains, in order\n\ntext\n1. `a` — first\n2. `b-c` — second\n## Next\n3. `d`")).toEqual(['a', 'b-c']);
  });

  it('catch each kind of violation between the domains of the core', () => {
    const file = (p: string, specifier: string): SourceFile => ({ path: p, text: `import { x } from '${specifier}';\n` });
    const order = ['corpus', 'eval', 'runs'];
    const violations = importViolations(
      [
        file('src/core/runs/run-record.ts', '../eval/measures.ts'),
        file('src/core/index.ts', './eval/measures.ts'),
        file('src/core/eval/evaluate.ts', '../index.ts'),
        file('src/core/eval/evaluate.ts', './index.ts'),
        file('src/core/eval/evaluate.ts', '../runs/index.ts'),
        file('src/core/eval/evaluate.ts', '../eval/index.ts'),
        file('src/core/corpus/fixtures/collect.ts', '../../eval/index.ts'),
        file('src/core/sweep/grid.ts', '../eval/index.ts'),
        file('src/core/eval/compare.test.ts', '../corpus/ingest.ts'),
        // allowed:
        file('src/core/runs/run-record.ts', '../eval/index.ts'),
        file('src/core/index.ts', './runs/index.ts'),
        file('src/core/eval/evaluate.ts', './measures.ts'),
        file('src/core/eval/index.ts', './measures.ts'),
        file('src/core/corpus/ingest.test.ts', '../runs/index.ts'),
        file('src/core/eval/compare.test.ts', '../corpus/fixtures/collect.ts'),
        file('src/core/eval/compare.test.ts', '../hds/test-doubles.ts'),
        file('src/core/parsers-fuzz.test.ts', './eval/index.ts'),
      ],
      order,
    );
    expect(violations.map((v) => `${v.file} → ${v.specifier}: ${v.rule}`)).toEqual([
      "src/core/runs/run-record.ts → ../eval/measures.ts: the core's domains import each other only through their doors (src/core/<domain>/index.ts)",
      "src/core/index.ts → ./eval/measures.ts: the core's domains import each other only through their doors (src/core/<domain>/index.ts)",
      "src/core/eval/evaluate.ts → ../index.ts: the core's domains import each other only through their doors (src/core/<domain>/index.ts)",
      "src/core/eval/evaluate.ts → ./index.ts: inside a domain of the core, files import each other directly, never through the domain's own door",
      'src/core/eval/evaluate.ts → ../runs/index.ts: a domain of the core imports only domains before it in the order of DESIGN.md',
      "src/core/eval/evaluate.ts → ../eval/index.ts: inside a domain of the core, files import each other directly, never through the domain's own door",
      'src/core/corpus/fixtures/collect.ts → ../../eval/index.ts: a domain of the core imports only domains before it in the order of DESIGN.md',
      'src/core/sweep/grid.ts → ../eval/index.ts: every domain of the core stands in the order of DESIGN.md',
      "src/core/eval/compare.test.ts → ../corpus/ingest.ts: the core's domains import each other only through their doors (src/core/<domain>/index.ts)",
    ]);
  });

  it('catch each kind of violation', () => {
    const file = (p: string, specifier: string): SourceFile => ({ path: p, text: `import { x } from '${specifier}';\n` });
    const violations = importViolations([
      file('src/ui/runs/RunsPage.tsx', '../../core/dense/top-k.ts'),
      file('src/cli/commands/run.ts', '../../storage/database.ts'),
      file('src/core/eval/measures.ts', '../../ui/shared/format.ts'),
      file('src/ui/gqr/GqrLabPage.tsx', '../runs/RunsTable.tsx'),
      file('src/ui/shared/CorpusPicker.tsx', '../search/SearchPage.tsx'),
      file('src/ui/runs/run-job-store.ts', '../../workers/abort-bridge.ts'),
      { path: 'src/ui/shared/QueryInspector.tsx', text: "import { type GqrInspection } from '../../workers/gqr-worker-api.ts';\n" },
      // allowed:
      file('src/ui/runs/RunsPage.tsx', '../../core/index.ts'),
      file('src/ui/runs/RunsPage.tsx', '../shared/CorpusPicker.tsx'),
      file('src/storage/runs-store.ts', './database.ts'),
      file('src/ui/pages.tsx', './runs/RunsPage.tsx'),
      file('src/ui/services/abort-port.ts', '../../workers/abort-bridge.ts'),
      file('src/ui/runs/run-job-store.test.ts', '../../workers/abort-bridge.ts'),
      { path: 'src/ui/search/SearchPage.tsx', text: "import type {\n  SearchHit,\n} from '../../workers/retrieval-worker-api.ts';\n" },
    ]);
    expect(violations.map((v) => `${v.file}: ${v.rule}`)).toEqual([
      'src/ui/runs/RunsPage.tsx: hosts import the core only through src/core/index.ts',
      'src/cli/commands/run.ts: hosts import storage only through src/storage/index.ts',
      'src/core/eval/measures.ts: the core imports nothing outside src/core',
      'src/ui/gqr/GqrLabPage.tsx: a page never imports another page (share it through src/ui/shared)',
      'src/ui/shared/CorpusPicker.tsx: services and shared never import a page',
      'src/ui/runs/run-job-store.ts: the ui reaches the workers only through src/ui/services (a *-worker-api.ts contract may be imported as a type)',
      'src/ui/shared/QueryInspector.tsx: the ui reaches the workers only through src/ui/services (a *-worker-api.ts contract may be imported as a type)',
    ]);
  });
});

describe('declared packages', () => {
  it('every package the code imports is in package.json', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
    const code = /\.(ts|tsx|mts|mjs)$/;
    const files = [...sources('src', code), ...sources('e2e'), ...sources('e2e-real'), ...sources('bench', code), ...sources('scripts', code), ...sources('bin', code)];
    expect(undeclaredImports(files, declared)).toEqual([]);
  });

  it('names the package of a specifier', () => {
    expect(['react', 'react-dom/client', '@huggingface/transformers', 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url', 'node:fs', './x.ts'].map(packageOf)).toEqual([
      'react',
      'react-dom',
      '@huggingface/transformers',
      'onnxruntime-web',
      null,
      null,
    ]);
    const file = { path: 'src/workers/w.ts', text: "import a from 'onnxruntime-web/x.wasm?url';\nimport b from 'react';" };
    expect(undeclaredImports([file], new Set(['react']))).toEqual(['src/workers/w.ts: onnxruntime-web']);
  });
});

describe('import circles', () => {
  it('there are none: every import chain ends', () => {
    const files = [...sources('src'), ...sources('e2e'), ...sources('bench')];
    expect(importCircles(files)).toEqual([]);
  });

  it('are found, each once, type imports included and workers started by URL not', () => {
    const files: SourceFile[] = [
      { path: 'src/a.ts', text: "import { b } from './b.ts';\nimport { d } from './d.ts';" },
      { path: 'src/b.ts', text: "import type { C } from './c.ts';" },
      { path: 'src/c.ts', text: "export { a } from './a.ts';" },
      { path: 'src/d.ts', text: "import { e } from './e.ts';" },
      { path: 'src/e.ts', text: "import { d } from './d.ts';\nnew Worker(new URL('./a.ts', import.meta.url));" },
      { path: 'src/f.ts', text: "import { b } from './b.ts';" },
    ];
    expect(importCircles(files)).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/c.ts'],
      ['src/d.ts', 'src/e.ts'],
    ]);
  });
});

describe('the core door', () => {
  it('exports only names some host imports (or the type tests pin, or the documented allow-list keeps)', () => {
    const hostCode = /\.(ts|tsx|mts|mjs)$/;
    const files = [...sources('src'), ...sources('e2e'), ...sources('e2e-real'), ...sources('bench', hostCode), ...sources('scripts', hostCode), ...sources('bin', hostCode)];
    expect(exportedNames(CORE_INDEX, read).size).toBeGreaterThan(100);
    expect(unusedCoreExports(files, read)).toEqual([]);
  });

  it('reads exports, star exports, aliases and type-only imports', () => {
    const texts: Record<string, string> = {
      'src/core/index.ts': "export { a, type B, c as d } from './x.ts';\nexport * from './sweep/index.ts';\nexport const e = 1;",
      'src/core/sweep/index.ts': "export {\n  f,\n  type G,\n} from './y.ts';",
    };
    expect([...exportedNames(CORE_INDEX, (p) => texts[p]!)].sort()).toEqual(['B', 'a', 'd', 'e', 'f', 'G'].sort());
    const used = namesImportedFromCore([
      { path: 'src/ui/page.tsx', text: "import { a, type B } from '../core/index.ts';" },
      { path: 'src/cli/x.ts', text: "import type { d as D2 } from '../core/index.ts';" },
      { path: 'src/storage/t.test.ts', text: "const { e } = await import('../core/index.ts');" },
      { path: 'src/core/inner.ts', text: "import { f } from './index.ts';" }, // the core itself does not count
    ]);
    expect([...used].sort()).toEqual(['B', 'a', 'd', 'e']);
    expect(unusedCoreExports([{ path: 'src/ui/p.ts', text: "import { a } from '../core/index.ts';" }], (p) => texts[p]!, ['e'])).toEqual(['B', 'G', 'd', 'f']);
  });
});
