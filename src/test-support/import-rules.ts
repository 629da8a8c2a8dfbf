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

/** One relative import of a file, resolved to the path it names. */
export interface ImportEdge {
  from: string;
  specifier: string;
  target: string;
  /** `import type …` / `export type …`: no code runs across it. */
  typeOnly: boolean;
  /** `new URL('…', import.meta.url)`: a worker or asset started from the file, not a module it imports. */
  url: boolean;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bnew URL\(\s*)(['"])([^'"]+)\1/g;
/** Folders of src/ui that are not pages. */
const UI_COMMON = new Set(['services', 'shared']);
/** Every relative import of every file, resolved. */
export function importEdges(files: readonly SourceFile[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = `\n${file.text}`;
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[2]!;
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      const statement = text.slice(Math.max(text.lastIndexOf('\nimport', match.index), text.lastIndexOf('\nexport', match.index)));
      const typeOnly = !match[0].startsWith('import') && !match[0].startsWith('new') && /^\n(import|export)\s+type\b/.test(statement);
      edges.push({ from: file.path, specifier, target, typeOnly, url: match[0].startsWith('new URL') });
    }
  }
  return edges;
}

/**
 * Every import of `files` that breaks a rule. `domainOrder` is the order of the core's domains (DESIGN.md, read by
 * {@link coreDomainOrder}): a domain imports only domains before it. Without it the order is not checked.
 */
export function importViolations(files: readonly SourceFile[], domainOrder?: readonly string[]): ImportViolation[] {
  const violations: ImportViolation[] = [];
  for (const edge of importEdges(files)) {
    const rule = brokenRule(edge) ?? (domainOrder ? brokenDomainOrder(edge, domainOrder) : null);
    if (rule) violations.push({ file: edge.from, specifier: edge.specifier, rule });
  }
  return violations;
}

/** npm's rule for a package name (the specifier pattern also matches quoted words that are not imports). */
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** The npm package a bare specifier names (`@scope/name` or `name`), or null for a relative path or a Node built-in. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('?')[0]!.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every import of a package that `declared` (package.json's dependencies and devDependencies) does not list. */
export function undeclaredImports(files: readonly SourceFile[], declared: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const match of file.text.matchAll(SPECIFIER)) {
      const name = match[0].startsWith('new URL') ? null : packageOf(match[2]!);
      if (name && PACKAGE_NAME.test(name) && !declared.has(name)) found.add(`${file.path}: ${name}`);
    }
  }
  return [...found];
}

/**
 * The import circles among `files` (workers started by URL are not imports), each once, as the files along it,
 * starting from its first file in path order. A depth-first search: a circle is an edge back to a file still open.
 */
export function importCircles(files: readonly SourceFile[]): string[][] {
  const graph = new Map<string, string[]>(files.map((f) => [f.path, []]));
  for (const edge of importEdges(files)) if (!edge.url && graph.has(edge.target)) graph.get(edge.from)!.push(edge.target);
  const circles = new Map<string, string[]>();
  const done = new Set<string>();
  const open: string[] = [];
  const visit = (file: string) => {
    open.push(file);
    for (const next of graph.get(file)!) {
      const at = open.indexOf(next);
      if (at >= 0) {
        const circle = open.slice(at);
        const first = circle.indexOf([...circle].sort()[0]!);
        const rotated = [...circle.slice(first), ...circle.slice(0, first)];
        circles.set(rotated.join(' → '), rotated);
      } else if (!done.has(next)) visit(next);
    }
    open.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file);
  return [...circles.values()];
}

function brokenRule({ from, target, typeOnly }: ImportEdge): string | null {
  const inCore = (p: string) => p.startsWith('src/core/');
  const inStorage = (p: string) => p.startsWith('src/storage/');
  if (inCore(from)) {
    if (inCore(target)) return brokenDoorRule(from, target);
    if (target === 'package.json') return null;
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
  if (from.startsWith('src/ui/') && target.startsWith('src/workers/') && !uiMayImportWorkerModule(from, target, typeOnly)) {
    return 'the ui reaches the workers only through src/ui/services (a *-worker-api.ts contract may be imported as a type)';
  }
  return null;
}

/** The domain of a file of the core (`eval` for src/core/eval/measures.ts), or null for the files beside the root door. */
export function coreDomain(file: string): string | null {
  const parts = file.split('/');
  return parts[0] === 'src' && parts[1] === 'core' && parts.length > 3 ? parts[2]! : null;
}

const doorOf = (domain: string) => `src/core/${domain}/index.ts`;
const isTest = (file: string) => /\.test(-d)?\.tsx?$/.test(file);
/** A test fixture: a file under a `fixtures/` folder or named `test-….ts` (not API: tests may import it directly). */
const isTestFixture = (file: string) => /\/fixtures\//.test(file) || /\/test-[^/]*\.ts$/.test(file);

/** Between the core's domains: each domain's door (its index.ts) is the only way in; inside a domain files import each other. */
function brokenDoorRule(from: string, target: string): string | null {
  const fromDomain = coreDomain(from);
  const targetDomain = coreDomain(target);
  if (fromDomain === targetDomain) {
    if (fromDomain && target === doorOf(fromDomain) && from !== target) return "inside a domain of the core, files import each other directly, never through the domain's own door";
    return null;
  }
  if (targetDomain && target === doorOf(targetDomain)) return null;
  if (targetDomain && isTest(from) && isTestFixture(target)) return null;
  return 'the core\'s domains import each other only through their doors (src/core/<domain>/index.ts)';
}

/** A domain's code (tests aside: they may set up with any domain) imports only domains before it in `order`. */
function brokenDomainOrder({ from, target }: ImportEdge, order: readonly string[]): string | null {
  const fromDomain = coreDomain(from);
  const targetDomain = coreDomain(target);
  if (!fromDomain || !targetDomain || fromDomain === targetDomain || isTest(from)) return null;
  const at = order.indexOf(fromDomain);
  const targetAt = order.indexOf(targetDomain);
  if (at < 0 || targetAt < 0) return 'every domain of the core stands in the order of DESIGN.md';
  return targetAt < at ? null : 'a domain of the core imports only domains before it in the order of DESIGN.md';
}

/**
 * The order of the core's domains, as DESIGN.md's section "The core's domains, in order" lists them: one numbered line
 * per domain, its folder name in backquotes first (`1. \`abort\` — …`).
 */
export function coreDomainOrder(design: string): string[] {
  const start = design.search(/^## The core's domains, in order$/m);
  if (start < 0) return [];
  const section = design.slice(start).split(/\n## /)[0]!;
  return [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]!);
}

/** The page folder of a file under src/ui (`runs` for src/ui/runs/RunsPage.tsx), or null. */
function uiPage(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts[1] !== 'ui' || parts.length < 4) return null;
  return UI_COMMON.has(parts[2]!) ? null : parts[2]!;
}

/** Services own the workers; a page or shared module needs at most a worker's contract types; a ui test may play the worker. */
function uiMayImportWorkerModule(from: string, target: string, typeOnly: boolean): boolean {
  if (from.startsWith('src/ui/services/') || /\.test\.tsx?$/.test(from)) return true;
  return typeOnly && target.endsWith('-worker-api.ts');
}
