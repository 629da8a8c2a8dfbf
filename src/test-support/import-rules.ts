// The layering rules, checked over import specifiers (src/architecture.test.ts runs them on the whole tree).
import path from 'node:path';

export interface SourceFile {
  /** Path relative to the repository root, with forward slashes (e.g. `src/ui/runs/RunsPage.tsx`). */
  path: string;
  text: string;
}

export interface ImportViolation {
  file: string;
  specifier: string;
  rule: string;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bnew URL\(\s*)(['"])([^'"]+)\1/g;
/** Folders of src/ui that are not pages. */
const UI_COMMON = new Set(['services', 'shared']);

/** Every import of `file` that breaks a rule. */
export function importViolations(files: readonly SourceFile[]): ImportViolation[] {
  const violations: ImportViolation[] = [];
  for (const file of files) {
    for (const match of file.text.matchAll(SPECIFIER)) {
      const specifier = match[2]!;
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      const rule = brokenRule(file.path, target);
      if (rule) violations.push({ file: file.path, specifier, rule });
    }
  }
  return violations;
}

function brokenRule(from: string, target: string): string | null {
  const inCore = (p: string) => p.startsWith('src/core/');
  const inStorage = (p: string) => p.startsWith('src/storage/');
  if (inCore(from)) {
    if (inCore(target) || target === 'package.json') return null;
    // Core tests may use the shared test fixtures and the tiny-model generator.
    if (/\.test\.tsx?$/.test(from) && (target.startsWith('src/test-support/') || target.startsWith('scripts/'))) return null;
    return 'the core imports nothing outside src/core';
  }
  if (inCore(target) && target !== 'src/core/index.ts') return 'hosts import the core only through src/core/index.ts';
  if (inStorage(target) && !inStorage(from) && target !== 'src/storage/index.ts') return 'hosts import storage only through src/storage/index.ts';
  const fromPage = uiPage(from);
  const targetPage = uiPage(target);
  if (fromPage && targetPage && fromPage !== targetPage) return 'a page never imports another page (share it through src/ui/shared)';
  if (targetPage && from.startsWith('src/ui/') && UI_COMMON.has(from.split('/')[2]!)) return 'services and shared never import a page';
  return null;
}

/** The page folder of a file under src/ui (`runs` for src/ui/runs/RunsPage.tsx), or null. */
function uiPage(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts[1] !== 'ui' || parts.length < 4) return null;
  return UI_COMMON.has(parts[2]!) ? null : parts[2]!;
}
