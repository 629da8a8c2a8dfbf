import { describe, expect, it } from 'vitest';
import { IngestCollector } from './collector.ts';
import { memorySource } from './fixtures/memory-source.ts';
import type { CorpusDocument } from './types.ts';
import { ingestTextFile } from './text-documents.ts';

async function run(path: string, content: string, passages?: { mode: 'whole' | 'split'; size: number; overlap: number }) {
  const documents: CorpusDocument[] = [];
  const c = new IngestCollector({ onBatch: (b) => void documents.push(...b.documents) }, 100);
  c.beginFile(path, 'documents');
  await ingestTextFile(memorySource(path, content, { chunkSize: 3 }), path, passages, c);
  await c.finish();
  return { documents, issues: c.issues };
}

describe('ingestTextFile', () => {
  it('makes one document per file titled by its first heading', async () => {
    const { documents } = await run('guide/intro.md', '\uFEFFSome text\n\nSetext Title\n============\nMore text\n# Later heading\n');
    expect(documents).toEqual([
      { id: 'guide/intro.md', title: 'Setext Title', text: 'Some text\n\nSetext Title\n============\nMore text\n# Later heading' },
    ]);
  });

  it('falls back to the file name without extension', async () => {
    expect((await run('a/no-heading.md', 'just text')).documents[0].title).toBe('no-heading');
    expect((await run('b/notes.v2.txt', '# hash line\ntext')).documents[0].title).toBe('notes.v2');
  });

  it('splits into numbered passages that all carry the heading found after the first ones', async () => {
    // Words: one two three four five # Heading six → 8 words; size 3, overlap 0 → 3 + 3 + 2.
    const { documents } = await run('p.md', 'one two three\nfour five\n# Heading\nsix', { mode: 'split', size: 3, overlap: 0 });
    expect(documents).toEqual([
      { id: 'p.md#1', title: 'Heading', text: 'one two three' },
      { id: 'p.md#2', title: 'Heading', text: 'four five #' },
      { id: 'p.md#3', title: 'Heading', text: 'Heading six' },
    ]);
  });

  it('rejects a file without words', async () => {
    const whole = await run('e.txt', '  \r\n\t\n');
    expect(whole.documents).toEqual([]);
    expect(whole.issues).toEqual([{ file: 'e.txt', reason: 'empty text: the file has no words' }]);
    const split = await run('e.md', '', { mode: 'split', size: 5, overlap: 1 });
    expect(split.issues).toHaveLength(1);
  });
});
