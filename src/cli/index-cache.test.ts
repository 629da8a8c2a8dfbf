import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../core/index.ts';
import { captureIo } from '../test-support/capture-io.ts';
import { indexCacheDir } from './index-cache.ts';
import { main } from './main.ts';

const fixture = path.resolve(import.meta.dirname, '../../e2e/fixtures/tiny-beir');

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-index-cache-'));
  fs.cpSync(fixture, path.join(dir, 'data'), { recursive: true });
  return { dir, data: path.join(dir, 'data'), cache: path.join(dir, 'cache') };
}

async function search(dir: string, cache: string, query: string, ...extra: string[]) {
  const io = captureIo(dir, { DSW_CACHE_DIR: cache });
  const code = await main(['search', '--dataset', 'data', '--query', query, '--json', ...extra], io);
  expect(io.stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(io.stdout) as Array<{ id: string; score: number; title: string }>;
}

const entries = (cache: string) => (fs.existsSync(path.join(cache, 'bm25')) ? fs.readdirSync(path.join(cache, 'bm25')).sort() : []);

describe('the CLI index cache', () => {
  it('writes the index on the first search and reads it on the second, with the same ranking', async () => {
    const { dir, cache } = workspace();
    const cold = await search(dir, cache, 'tide mill wheel');
    expect(entries(cache)).toHaveLength(1);
    expect(cold[0]).toMatchObject({ id: 't1', title: 'Tidal mills' });
    expect(await search(dir, cache, 'tide mill wheel')).toEqual(cold);
    expect(entries(cache)).toHaveLength(1);

    // Proof that the second run read the cache and did not index the files: plant an index that only the cache
    // holds (one document, "planted"), and the search finds it.
    const file = path.join(cache, 'bm25', entries(cache)[0]!);
    const entry = v8.deserialize(fs.readFileSync(file)) as { index: unknown };
    const planted = Bm25Index.create();
    planted.addAll([{ id: 'planted', title: '', text: 'tide mill wheel' }]);
    fs.writeFileSync(file, v8.serialize({ ...entry, index: planted.serialize() }));
    expect((await search(dir, cache, 'tide mill wheel')).map((h) => h.id)).toEqual(['planted']);
  });

  it('indexes again when the corpus or the analyzer changes', async () => {
    const { dir, data, cache } = workspace();
    await search(dir, cache, 'tide');
    fs.appendFileSync(path.join(data, 'corpus.jsonl'), '{"_id": "t9", "title": "Millponds", "text": "A millpond holds water for the wheel."}\n');
    expect((await search(dir, cache, 'millpond')).map((h) => h.id)).toEqual(['t9']);
    expect(entries(cache)).toHaveLength(2);
    // Same bytes, other analyzer: another entry, built with that analyzer (t4 says "evaporates": only the
    // stemmed index matches "evaporate").
    expect((await search(dir, cache, 'evaporate')).map((h) => h.id)).toEqual(['t4']);
    expect(await search(dir, cache, 'evaporate', '--param', 'stemming=none')).toEqual([]);
    expect(entries(cache)).toHaveLength(3);
    expect(await search(dir, cache, 'evaporate', '--param', 'stemming=none')).toEqual([]);
    expect((await search(dir, cache, 'evaporate')).map((h) => h.id)).toEqual(['t4']);
    expect(entries(cache)).toHaveLength(3);
  });

  it('serves dsw run too: the second run writes the same TREC file from the cached index', async () => {
    const { dir, cache } = workspace();
    const run = async (out: string) => {
      const io = captureIo(dir, { DSW_CACHE_DIR: cache });
      expect(await main(['run', '--dataset', 'data', '--out', out], io)).toBe(0);
      return fs.readFileSync(path.join(dir, out), 'utf8');
    };
    const first = await run('a.trec');
    expect(entries(cache)).toHaveLength(1);
    expect(await run('b.trec')).toBe(first);
    expect(first).toContain('tq1 Q0 t1 1 ');
  });

  it('is off with DSW_CACHE_DIR=off, and without a home folder', () => {
    expect(indexCacheDir({ DSW_CACHE_DIR: 'off', HOME: '/home/u' }, '/w')).toBeNull();
    expect(indexCacheDir({}, '/w')).toBeNull();
    expect(indexCacheDir({ DSW_CACHE_DIR: 'c' }, '/w')).toBe(path.resolve('/w/c/bm25'));
    expect(indexCacheDir({ HOME: '/home/u' }, '/w')).toBe(path.join('/home/u', '.cache', 'dsw', 'bm25'));
    expect(indexCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: '/x' }, '/w')).toBe(path.join('/x', 'dsw', 'bm25'));
  });
});
