import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { collectIngest, jsonl } from './fixtures/collect.ts';
import { memorySource } from './fixtures/memory-source.ts';
import { readChunks } from './lines.ts';
import { listZipEntries, zipEntrySource } from './zip.ts';

/** A zip of one deflated entry whose content is `head` followed by `blankBytes` newlines, built chunk by chunk. */
function blankLineBomb(name: string, head: string, blankBytes: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    parts.push(data);
  });
  const entry = new ZipDeflate(name, { level: 9 });
  zip.add(entry);
  entry.push(strToU8(head), false);
  const block = new Uint8Array(1024 * 1024).fill(10);
  for (let left = blankBytes; left > 0; left -= block.length) entry.push(block.subarray(0, Math.min(block.length, left)), left <= block.length);
  zip.end();
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

describe('zip limits', () => {
  it('inflates an entry in bounded pieces, however well it compresses', async () => {
    const bytes = blankLineBomb('blank.txt', '', 6 * 1024 * 1024);
    expect(bytes.length).toBeLessThan(20_000);
    const zip = memorySource('bomb.zip', bytes, { chunkSize: 65536 });
    const [entry] = await listZipEntries(zip);
    let largest = 0;
    let total = 0;
    for await (const chunk of readChunks(zipEntrySource(zip, entry!).stream())) {
      largest = Math.max(largest, chunk.byteLength);
      total += chunk.byteLength;
    }
    expect(total).toBe(6 * 1024 * 1024);
    expect(largest).toBeLessThanOrEqual(1100 * 1024);
  });

  it('refuses an entry past the inflation ratio with a clear message and keeps the records read before it', async () => {
    const head = jsonl({ _id: 'd1', text: 'first' }, { _id: 'd2', text: 'second' });
    const zip = memorySource('bomb.zip', blankLineBomb('corpus.jsonl', head, 12 * 1024 * 1024));
    const { documents, summary } = await collectIngest([zip]);
    expect(documents.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(summary.issues).toHaveLength(1);
    expect(summary.issues[0]!.file).toBe('corpus.jsonl');
    expect(summary.issues[0]!.reason).toMatch(/zip entry corpus\.jsonl inflates more than 200 times .*refused as a likely zip bomb/);
  });

  it('refuses an entry past the size limit', async () => {
    const zip = memorySource('big.zip', zipSync({ 'a.txt': new Uint8Array(300_000).fill(97) }));
    const [entry] = await listZipEntries(zip);
    const limits = { maxEntryBytes: 100_000, maxRatio: 1e9, ratioAfterBytes: Infinity };
    const read = async () => {
      for await (const _ of readChunks(zipEntrySource(zip, entry!, limits).stream())) void _;
    };
    await expect(read()).rejects.toThrow(/zip entry a\.txt inflates to more than 0\.10 MiB: refused/);
  });
});
