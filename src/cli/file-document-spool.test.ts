import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCorpus, SpooledCorpusStore, type CorpusDocument } from '../core/index.ts';
import { captureIo } from '../test-support/capture-io.ts';
import { FileDocumentSpool } from './file-document-spool.ts';
import type { SpoolFile } from './spool-folder.ts';
import { loadDataset, type LoadDatasetOptions } from './load-dataset.ts';
import { fileSource } from './node-sources.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-spool-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const spoolsIn = (folder: string) => fs.readdirSync(folder).filter((f) => f.startsWith('dsw-documents-'));

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

// One dataset per format and encoding; each holds non-ASCII text, multi-line fields or metadata.
const datasets: Array<[string, string, LoadDatasetOptions['encoding']?]> = [
  [
    'a BEIR folder (JSONL, metadata)',
    (write(
      'beir/corpus.jsonl',
      Array.from({ length: 1300 }, (_, i) => JSON.stringify({ _id: `p${i}`, title: i % 4 ? `Título ${i}` : '', text: `passage ${i} 文書 "quoted"\tline`, url: `u${i}`, tags: [i, 'x'] })).join('\n'),
    ),
    write('beir/queries.jsonl', '{"_id":"q1","text":"passage"}\n'),
    path.join(dir, 'beir')),
  ],
  ['a CSV file (quoted, multi-line fields)', write('csv/docs.csv', 'id,title,text,source\n1,"A, a","one\nline",wiki\n2,B,"two ""quoted""",web\n3,,three,\n')],
  ['a TSV file', write('tsv/docs.tsv', 'id\ttext\tlang\nt1\ttab text\ten\nt2\tautre texte\tfr\n')],
  ['a Latin-1 JSONL file read as Latin-1', write('latin1/docs.jsonl', Buffer.from('{"_id":"café","text":"crème brûlée"}\n{"_id":"cafè","text":"über"}\n', 'latin1')), 'latin1'],
  ['a UTF-16 CSV file with a byte-order mark', write('utf16/docs.csv', utf16le('id,title,text\nα,Ωmega,"ελληνικά\nκείμενο"\nβ,😀,emoji text\n'))],
];

describe('loadDataset with documents: spool', () => {
  for (const [name, source, encoding] of datasets) {
    it(`reads back every document of ${name} equal to the one parsed, in the order asked`, async () => {
      const memory = await loadDataset(source, captureIo(dir), { encoding });
      const all = await memory.store.listDocuments(memory.corpus.id, { limit: 1e6 });
      expect(all.length).toBeGreaterThan(1);
      const spoolDir = fs.mkdtempSync(path.join(dir, 'spools-'));
      const spooled = await loadDataset(source, captureIo(dir), { encoding, documents: 'spool', spoolDir });
      try {
        expect(spooled.corpus.documentCount).toBe(all.length);
        const ids = all.map((d) => d.id).reverse();
        const asked = [...ids, 'not-an-id', ids[0]!];
        expect(await spooled.store.getDocuments(spooled.corpus.id, asked)).toEqual(
          await memory.store.getDocuments(memory.corpus.id, asked),
        );
        expect((await spooled.store.getDocuments(spooled.corpus.id, asked)).at(-2)).toBeUndefined();
        expect(spoolsIn(spoolDir)).toHaveLength(1);
      } finally {
        await spooled.close();
      }
      expect(spoolsIn(spoolDir)).toEqual([]);
      expect(await spooled.store.getDocuments(spooled.corpus.id, [all[0]!.id])).toEqual([undefined]);
    });
  }

  it('makes the spool in the OS temp folder by default, and removes it when the load fails', async () => {
    const before = new Set(spoolsIn(os.tmpdir()));
    const loaded = await loadDataset(path.join(dir, 'tsv'), captureIo(dir), { documents: 'spool' });
    expect(spoolsIn(os.tmpdir()).filter((f) => !before.has(f))).toHaveLength(1);
    await loaded.close();
    expect(spoolsIn(os.tmpdir()).filter((f) => !before.has(f))).toEqual([]);

    const spoolDir = fs.mkdtempSync(path.join(dir, 'spools-'));
    const empty = write('empty/docs.jsonl', '{"_id":"x"}\n');
    await expect(loadDataset(empty, captureIo(dir), { documents: 'spool', spoolDir })).rejects.toThrow(/Cannot load dataset/);
    expect(spoolsIn(spoolDir)).toEqual([]);
  });
});

/** A spool file that counts what is read from it. */
function countingOpen(stats: { bytes: number; reads: number }) {
  return async (file: string): Promise<SpoolFile> => {
    const handle = await fsp.open(file, 'w+');
    return {
      write: handle.write.bind(handle) as SpoolFile['write'],
      close: () => handle.close(),
      read: (async (buffer: Buffer, offset: number, length: number, position: number) => {
        const result = await handle.read(buffer, offset, length, position);
        stats.bytes += result.bytesRead;
        stats.reads++;
        return result;
      }) as SpoolFile['read'],
    };
  };
}

/** Documents of the same shape at every corpus size: document i's JSON has the same length for every size. */
const generated = (n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ _id: `doc${String(i).padStart(6, '0')}`, title: 'same title', text: `words of passage ${String(i).padStart(6, '0')}` })).join('\n');

describe('FileDocumentSpool', () => {
  it('reads the same bytes for a 10-document lookup in a 10-document and a 10,000-document corpus', async () => {
    const perLookup: Array<{ bytes: number; reads: number }> = [];
    for (const n of [10, 10_000]) {
      const stats = { bytes: 0, reads: 0 };
      const store = new SpooledCorpusStore(() => FileDocumentSpool.create({ dir, open: countingOpen(stats) }));
      const { corpus } = await loadCorpus([await fileSource(write(`generated-${n}/corpus.jsonl`, generated(n)))], { name: 'g' }, store);
      expect(stats.reads).toBe(0);
      const ids = Array.from({ length: 10 }, (_, i) => `doc${String(Math.floor((i * n) / 10)).padStart(6, '0')}`);
      const docs = await store.getDocuments(corpus.id, ids);
      expect(docs.map((d) => d?.id)).toEqual(ids);
      perLookup.push({ ...stats });
      await store.close();
    }
    expect(perLookup[0]!.reads).toBe(10);
    expect(perLookup[1]).toEqual(perLookup[0]);
    // Exactly the documents' own JSON: nothing around them.
    const line = JSON.stringify({ id: 'doc000000', title: 'same title', text: 'words of passage 000000' });
    expect(perLookup[0]!.bytes).toBe(10 * Buffer.byteLength(line));
  });

  it('keeps rows apart across the chunks of its offsets (70,000 documents in uneven batches)', async () => {
    const spool = await FileDocumentSpool.create({ dir });
    const doc = (i: number): CorpusDocument => ({ id: `d${i}`, title: i % 2 ? 'é' : '', text: 'x'.repeat(i % 17 + 1) });
    try {
      for (let from = 0; from < 70_000; from += 4_999) await spool.append(Array.from({ length: Math.min(4_999, 70_000 - from) }, (_, i) => doc(from + i)));
      expect(spool.count).toBe(70_000);
      const rows = [0, 65_535, 65_536, 65_537, 69_999, 1, 65_536];
      expect(await spool.read(rows)).toEqual(rows.map(doc));
    } finally {
      await spool.close();
    }
  });

  it('refuses rows it does not hold and any use after close; the file and its folder are gone', async () => {
    const spool = await FileDocumentSpool.create({ dir });
    const doc: CorpusDocument = { id: 'a', title: '', text: 'x' };
    await spool.append([doc]);
    await spool.append([]);
    expect(await spool.read([0, 0])).toEqual([doc, doc]);
    await expect(spool.read([1])).rejects.toThrow('No document at row 1 of the spool (it holds 1)');
    expect(fs.existsSync(spool.path)).toBe(true);
    await spool.close();
    expect(fs.existsSync(path.dirname(spool.path))).toBe(false);
    await expect(spool.read([0])).rejects.toThrow('The document spool is closed');
    await expect(spool.append([doc])).rejects.toThrow('The document spool is closed');
    await spool.close();
  });

  it('says which file could not be written, and the load that wrote it removes it', async () => {
    const spoolDir = fs.mkdtempSync(path.join(dir, 'spools-'));
    const full = async (file: string): Promise<SpoolFile> => {
      const handle = await fsp.open(file, 'w+');
      return {
        read: handle.read.bind(handle) as SpoolFile['read'],
        close: () => handle.close(),
        write: (async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        }) as SpoolFile['write'],
      };
    };
    const store = new SpooledCorpusStore(() => FileDocumentSpool.create({ dir: spoolDir, open: full }));
    await expect(loadCorpus([await fileSource(write('generated-failing/corpus.jsonl', generated(20)))], { name: 'g' }, store)).rejects.toThrow(
      /Cannot write the document spool .*dsw-documents-.*documents\.jsonl: ENOSPC: no space left on device/,
    );
    expect(spoolsIn(spoolDir)).toEqual([]);
    await expect(FileDocumentSpool.create({ dir: path.join(dir, 'no such folder') })).rejects.toThrow(/Cannot make a folder for the document spool in .*no such folder/);
  });

  it('is removed when the process exits without closing it', () => {
    const spoolDir = fs.mkdtempSync(path.join(dir, 'spools-'));
    const script = write(
      'exit-child.mts',
      `import { FileDocumentSpool } from ${JSON.stringify(path.resolve(import.meta.dirname, 'file-document-spool.ts'))};
const spool = await FileDocumentSpool.create({ dir: ${JSON.stringify(spoolDir)} });
await spool.append([{ id: 'a', title: '', text: 'x' }]);
console.log(spool.path);
process.exit(0);`,
    );
    const printed = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' }).trim();
    expect(printed.startsWith(spoolDir)).toBe(true);
    expect(spoolsIn(spoolDir)).toEqual([]);
  }, 30_000);
});
