// The core's door (src/core/index.ts) names only what hosts use: its exports against the hosts' imports of it
// (src/architecture.test.ts runs this on the whole tree).
import path from 'node:path';
import type { SourceFile } from './import-rules.ts';

export const CORE_INDEX = 'src/core/index.ts';

/**
 * Exports kept although no host imports them: deliberate public API for outside scripts. The names the type tests
 * (`src/core/index.test-d.ts`) pin are public API too and need not be listed here.
 */
export const PUBLIC_API_ALLOWED: readonly string[] = [
  // How a host tells a cancellation from a failure (the UI's job stores are moving to it).
  'isAbortError',
];

const EXPORT_LIST = /\bexport\s+(?:type\s+)?\{([^}]*)\}(?:\s*from\s*(['"])([^'"]+)\2)?/g;
const EXPORT_STAR = /\bexport\s+\*\s+from\s*(['"])([^'"]+)\1/g;
const EXPORT_DECLARATION = /\bexport\s+(?:declare\s+)?(?:abstract\s+)?(?:const|let|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
const IMPORT_LIST = /\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2/g;
const DYNAMIC_IMPORT = /\{([^}]*)\}\s*=\s*await\s+import\(\s*(['"])([^'"]+)\2\s*\)/g;

function names(list: string, side: 'exported' | 'imported'): string[] {
  return list
    .split(',')
    .map((item) => item.replace(/\/\/.*$|\/\*.*?\*\//gm, '').trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((item) => {
      const [name, alias] = item.split(/\s+as\s+/);
      return (side === 'exported' ? (alias ?? name) : name)!.trim();
    });
}

/** Every name `file` exports, following `export *` into the files it names (read through `read`). */
export function exportedNames(file: string, read: (path: string) => string): Set<string> {
  const text = read(file);
  const found = new Set<string>();
  for (const m of text.matchAll(EXPORT_LIST)) for (const n of names(m[1]!, 'exported')) found.add(n);
  for (const m of text.matchAll(EXPORT_DECLARATION)) found.add(m[1]!);
  for (const m of text.matchAll(EXPORT_STAR)) {
    for (const n of exportedNames(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2]!)), read)) found.add(n);
  }
  return found;
}

/** The names files outside the core import from (or re-export of) the core's door. */
export function namesImportedFromCore(files: readonly SourceFile[]): Set<string> {
  const used = new Set<string>();
  for (const file of files) {
    if (file.path.startsWith('src/core/') && file.path !== 'src/core/index.test-d.ts') continue;
    for (const pattern of [IMPORT_LIST, DYNAMIC_IMPORT]) {
      for (const m of file.text.matchAll(pattern)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), m[3]!));
        if (target === CORE_INDEX) for (const n of names(m[1]!, 'imported')) used.add(n);
      }
    }
  }
  return used;
}

/** Names the door exports that no host imports, no type test pins and the allow-list does not keep. */
export function unusedCoreExports(files: readonly SourceFile[], read: (path: string) => string, allowed: readonly string[] = PUBLIC_API_ALLOWED): string[] {
  const used = namesImportedFromCore(files);
  return [...exportedNames(CORE_INDEX, read)].filter((n) => !used.has(n) && !allowed.includes(n)).sort();
}
