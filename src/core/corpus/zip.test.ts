import { strToU8, Zip, ZipDeflate, ZipPassThrough, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generatedSource, memorySource } from './fixtures/memory-source.ts';
import { readText } from './lines.ts';
import { expandZip, listZipEntries, zipEntrySource } from './zip.ts';

async function textOf(source: { stream(): ReadableStream<Uint8Array>; name: string; size: number }): Promise<string> {
  let text = '';
  for await (const part of readText(source)) text += part;
  return text;
}

/** A zip written the streaming way: sizes unknown up front, data descriptors after each entry. */
function streamedZip(files: Record<string, string>, stored = false): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    parts.push(data);
  });
  for (const [name, content] of Object.entries(files)) {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(strToU8(content), true);
  }
  zip.end();
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

const files = {
  'data/corpus.jsonl': '{"_id":"1","text":"héllo"}\n'.repeat(50),
  'data/qrels/test.tsv': 'q\td\t1\n',
  'data/empty.txt': '',
  'notes.md': '# Notes\nwörds',
};

describe('zip entries', () => {
  it('lists the entries of a zip read in tiny chunks', async () => {
    const zip = memorySource('a.zip', zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))), { chunkSize: 7 });
    const entries = await listZipEntries(zip);
    expect(entries.map((e) => [e.index, e.name, e.size])).toEqual([
      [0, 'data/corpus.jsonl', strToU8(files['data/corpus.jsonl']).length],
      [1, 'data/qrels/test.tsv', 6],
      [2, 'data/empty.txt', 0],
      [3, 'notes.md', strToU8(files['notes.md']).length],
    ]);
  });

  it('streams each entry, deflated or stored, with sizes known or not', async () => {
    const zips = [
      zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))),
      zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])), { level: 0 }),
      streamedZip(files),
      streamedZip(files, true),
    ];
    for (const bytes of zips) {
      for (const chunkSize of [7, 4096]) {
        const sources = await expandZip(memorySource('a.zip', bytes, { chunkSize }));
        expect(sources.map((s) => [s.name, s.path])).toEqual([
          ['corpus.jsonl', 'data/corpus.jsonl'],
          ['test.tsv', 'data/qrels/test.tsv'],
          ['empty.txt', 'data/empty.txt'],
          ['notes.md', 'notes.md'],
        ]);
        for (const s of sources) expect(await textOf(s)).toBe(files[s.path as keyof typeof files]);
        // Entries can be read again, in any order.
        expect(await textOf(sources[3])).toBe(files['notes.md']);
        expect(await textOf(sources[0])).toBe(files['data/corpus.jsonl']);
      }
    }
  });

  it('leaves directory entries out', async () => {
    const zip = memorySource('d.zip', zipSync({ 'dir/': new Uint8Array(0), 'dir/a.txt': strToU8('a') }));
    expect((await listZipEntries(zip)).map((e) => e.name)).toEqual(['dir/', 'dir/a.txt']);
    expect((await expandZip(zip)).map((s) => s.path)).toEqual(['dir/a.txt']);
  });

  it('inflates an entry only as far as it is read, and stops reading the archive after the entry', async () => {
    // ~3 MB of text that deflates well, then an entry that does not.
    const big = Array.from({ length: 60000 }, (_, i) => `{"_id":"${i}","text":"passage number ${i}"}\n`).join('');
    let seed = 1;
    const noise = Array.from({ length: 20000 }, () => ((seed = (seed * 48271) % 2147483647) % 16).toString(16)).join('');
    const bytes = zipSync({ 'big.jsonl': strToU8(big), 'after.txt': strToU8(noise) });
    const zip = memorySource('big.zip', bytes, { chunkSize: 1024 });
    const [entry] = await listZipEntries(zip);
    const pulledByListing = zip.stats.bytesPulled;
    expect(pulledByListing).toBe(bytes.length);

    const reader = zipEntrySource(zip, entry).stream().getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    expect(first.value!.byteLength).toBeLessThan(1024 * 1024);
    await reader.cancel();
    expect(zip.stats.bytesPulled - pulledByListing).toBeLessThan(10 * 1024);

    // Reading the first entry to its end does not read the rest of the archive.
    const whole = memorySource('big.zip', bytes, { chunkSize: 1024 });
    const [firstEntry] = await listZipEntries(whole);
    const before = whole.stats.bytesPulled;
    expect(await textOf(zipEntrySource(whole, firstEntry))).toBe(big);
    expect(whole.stats.bytesPulled - before).toBeLessThan(bytes.length - 5000);
    expect(whole.stats.cancelled).toBe(true);
  });

  it('gives no entries for bytes that are not a zip, and rejects a truncated zip', async () => {
    expect(await listZipEntries(memorySource('x.zip', 'just some text, not a zip'))).toEqual([]);
    const bytes = zipSync({ 'a.txt': strToU8('x'.repeat(1000)) }, { level: 0 });
    await expect(listZipEntries(memorySource('t.zip', bytes.subarray(0, 200)))).rejects.toThrow();
  });

  it('fails the entry stream for an unsupported compression method', async () => {
    const bytes = zipSync({ 'a.txt': strToU8('abc') }, { level: 0 });
    bytes[8] = 14; // local header compression method: LZMA
    const zip = memorySource('lzma.zip', bytes);
    const [entry] = await listZipEntries(zip);
    expect(entry.compression).toBe(14);
    await expect(textOf(zipEntrySource(zip, entry))).rejects.toThrow('unsupported zip compression method 14');
  });

  it('reads an archive that is produced lazily', async () => {
    const bytes = zipSync({ 'a.txt': strToU8('lazy') });
    const source = generatedSource(
      'lazy.zip',
      function* () {
        for (let i = 0; i < bytes.length; i += 5) yield bytes.subarray(i, i + 5);
      },
      { size: bytes.length },
    );
    const [entry] = await expandZip(source);
    expect(await textOf(entry)).toBe('lazy');
  });
});
