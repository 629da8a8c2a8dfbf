import { describe, expect, it } from 'vitest';
import { describeCorpusStoreContract } from '../../test-support/corpus-store-contract.ts';
import { memorySource } from '../corpus/fixtures/memory-source.ts';
import type { CorpusDocument } from '../corpus/index.ts';
import { loadCorpus } from '../loader/index.ts';
import type { DocumentSpool } from './document-spool.ts';
import { SpooledCorpusStore } from './spooled-corpus-store.ts';

/** A spool in memory (documents as JSON text, like a file), recording the rows read and whether it was closed. */
class MemorySpool implements DocumentSpool {
  readonly lines: string[] = [];
  readonly reads: number[][] = [];
  closed = false;
  get count() {
    return this.lines.length;
  }
  async append(documents: readonly CorpusDocument[]) {
    if (this.closed) throw new Error('closed');
    for (const doc of documents) this.lines.push(JSON.stringify(doc));
  }
  async read(rows: readonly number[]) {
    if (this.closed) throw new Error('closed');
    this.reads.push([...rows]);
    return rows.map((row) => JSON.parse(this.lines[row]!) as CorpusDocument);
  }
  async close() {
    this.closed = true;
  }
}

function spooledStore() {
  const spools: MemorySpool[] = [];
  const store = new SpooledCorpusStore(async () => {
    const spool = new MemorySpool();
    spools.push(spool);
    return spool;
  });
  return { store, spools };
}

describeCorpusStoreContract('SpooledCorpusStore', async () => spooledStore().store);

const documents = Array.from({ length: 2500 }, (_, i) => ({
  id: `d${i}`,
  title: i % 3 === 0 ? '' : `Title ${i}`,
  text: `passage ${i} about ${i % 2 ? 'salt marsh' : 'harbour light'}`,
  ...(i % 5 === 0 ? { metadata: { url: `https://example.org/${i}`, rank: i } } : {}),
}));
const jsonl = documents.map(({ id, title, text, metadata }) => JSON.stringify({ _id: id, title, text, ...metadata })).join('\n');

describe('SpooledCorpusStore over a load', () => {
  it('spools every batch of a load in index order and reads back exactly the documents asked for', async () => {
    const { store, spools } = spooledStore();
    const { corpus } = await loadCorpus([memorySource('corpus.jsonl', jsonl, { chunkSize: 997 })], { name: 'x', batchSize: 64 }, store);
    expect(corpus.documentCount).toBe(2500);
    expect(spools).toHaveLength(1);
    expect(spools[0]!.count).toBe(2500);
    const asked = ['d2499', 'nope', 'd0', 'd1250', 'd0', 'd7', ''];
    const got = await store.getDocuments(corpus.id, asked);
    expect(got).toEqual([documents[2499], undefined, documents[0], documents[1250], documents[0], documents[7], undefined]);
    // One read of the distinct known rows, in the order first asked.
    expect(spools[0]!.reads).toEqual([[2499, 0, 1250, 7]]);
    expect(await store.getDocuments(corpus.id, [])).toEqual([]);
    expect(await store.getDocuments('other corpus', ['d1'])).toEqual([undefined]);
  });

  it('pages documents in load order', async () => {
    const { store } = spooledStore();
    const { corpus } = await loadCorpus([memorySource('corpus.jsonl', jsonl)], { name: 'x' }, store);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await store.listDocuments(corpus.id, { after, limit: 700 });
      if (page.length === 0) break;
      seen.push(...page.map((d) => d.id));
      after = page.at(-1)!.id;
    }
    expect(seen).toEqual(documents.map((d) => d.id));
    expect(await store.listDocuments(corpus.id, { after: 'unknown', limit: 10 })).toEqual([]);
  });

  it('closes the spool of a deleted corpus, of a failed load, and every spool on close', async () => {
    const { store, spools } = spooledStore();
    const { corpus } = await loadCorpus([memorySource('corpus.jsonl', jsonl)], { name: 'a' }, store);
    await expect(loadCorpus([memorySource('corpus.jsonl', '{"_id":"x"}')], { name: 'empty' }, store)).rejects.toThrow(/No document could be loaded/);
    expect(spools.map((s) => s.closed)).toEqual([false, true]);
    await loadCorpus([memorySource('corpus.jsonl', jsonl)], { name: 'b' }, store);
    await store.deleteCorpus(corpus.id);
    expect(spools.map((s) => s.closed)).toEqual([true, true, false]);
    await store.close();
    expect(spools.every((s) => s.closed)).toBe(true);
    expect(await store.listCorpora()).toEqual([]);
  });

  it('says so when the spool is out of step with the index', async () => {
    const { store, spools } = spooledStore();
    const { corpus } = await loadCorpus([memorySource('corpus.jsonl', jsonl)], { name: 'x' }, store);
    [spools[0]!.lines[3], spools[0]!.lines[4]] = [spools[0]!.lines[4]!, spools[0]!.lines[3]!];
    await expect(store.getDocuments(corpus.id, ['d3'])).rejects.toThrow('row 3 holds d4, not d3');
  });
});
