import { describe, expect, it } from 'vitest';
import { basename, blobSource, dirname, extension, isJunkPath, sourcePath, stem } from './source.ts';

describe('source paths', () => {
  it('uses the path when given, else the name, with / separators', () => {
    expect(sourcePath({ name: 'a.tsv', size: 0, stream: () => new ReadableStream() })).toBe('a.tsv');
    expect(sourcePath({ name: 'a.tsv', path: '.\\ds\\qrels\\a.tsv', size: 0, stream: () => new ReadableStream() })).toBe('ds/qrels/a.tsv');
    expect(sourcePath({ name: 'a.tsv', path: '/ds/a.tsv', size: 0, stream: () => new ReadableStream() })).toBe('ds/a.tsv');
  });

  it('splits paths', () => {
    expect([basename('a/b/c.tar.gz'), dirname('a/b/c.tar.gz'), extension('a/b/c.tar.gz'), stem('a/b/c.tar.gz')]).toEqual(['c.tar.gz', 'a/b', 'gz', 'c.tar']);
    expect([dirname('c.md'), extension('README'), extension('.hidden'), stem('.hidden'), extension('X.MD')]).toEqual(['', '', '', '.hidden', 'md']);
  });

  it('recognises hidden files and macOS archive clutter', () => {
    expect(['a/.DS_Store', '__MACOSX/a/._x.jsonl', 'a/b.jsonl'].map(isJunkPath)).toEqual([true, true, false]);
  });

  it('wraps a Blob', async () => {
    const source = blobSource(new Blob(['hello']), 'h.txt', 'dir/h.txt');
    expect([source.name, source.path, source.size]).toEqual(['h.txt', 'dir/h.txt', 5]);
    expect(await new Response(source.stream()).text()).toBe('hello');
  });
});
