// An effect written as `useEffect(() => expression)` hands the expression's value to React as its cleanup. Chromium's
// scrollIntoView now returns a promise, and React then calls that promise on unmount ("destroy_ is not a function",
// a blank page): so an effect's body is a block, or a function that only returns its cleanup.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const EXPRESSION_EFFECT = /\buse(?:Layout|Insertion)?Effect\(\s*(?:async\s*)?\(\s*\)\s*=>(?!\s*\{|\s*\(\s*\)\s*=>)/g;

/** `file:line` of every effect whose arrow body is an expression other than a cleanup function. */
function expressionEffects(file: string, text: string): string[] {
  return [...text.matchAll(EXPRESSION_EFFECT)].map((m) => `${file}:${text.slice(0, m.index).split('\n').length}`);
}

function uiSources(dir: string): Array<{ file: string; text: string }> {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return uiSources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [{ file: path.relative(process.cwd(), full), text: fs.readFileSync(full, 'utf8') }] : [];
  });
}

describe('effect bodies', () => {
  it('are blocks or cleanup functions across src/ui', () => {
    const found = uiSources(path.resolve(import.meta.dirname)).flatMap(({ file, text }) => expressionEffects(file, text));
    expect(found).toEqual([]);
  });

  it('catch an expression body and let blocks and cleanup-only effects pass', () => {
    const text = [
      'useEffect(() => el.scrollIntoView(), [a]);',
      'useLayoutEffect(() => setOpen(false), []);',
      'useEffect(() => {\n  el.scrollIntoView();\n}, [a]);',
      'useEffect(() => () => cancel(), []);',
      'useEffect(async () => load(), []);',
    ].join('\n');
    expect(expressionEffects('x.tsx', text)).toEqual(['x.tsx:1', 'x.tsx:2', 'x.tsx:7']);
  });
});
