import { describe, expect, it } from 'vitest';
import { generatedSource, memorySource } from './fixtures/memory-source.ts';
import { readChunks, readLines, readText, type Line } from './lines.ts';

async function allLines(content: string | Uint8Array, chunkSize: number): Promise<Line[]> {
  const out: Line[] = [];
  for await (const group of readLines(memorySource('f.txt', content, { chunkSize }))) out.push(...group);
  return out;
}

describe('readLines', () => {
  it('numbers lines from 1 and keeps a last line without a line break', async () => {
    for (const chunkSize of [1, 2, 7, 1000]) {
      expect(await allLines('alpha\nbeta\n\ngamma', chunkSize)).toEqual([
        { text: 'alpha', line: 1 },
        { text: 'beta', line: 2 },
        { text: '', line: 3 },
        { text: 'gamma', line: 4 },
      ]);
    }
  });

  it('does not invent an empty line after a final line break', async () => {
    expect(await allLines('a\nb\n', 3)).toEqual([
      { text: 'a', line: 1 },
      { text: 'b', line: 2 },
    ]);
    expect(await allLines('', 3)).toEqual([]);
  });

  it('strips CRLF line breaks, also when \\r and \\n fall in different chunks', async () => {
    for (const chunkSize of [1, 2, 3, 4]) {
      expect(await allLines('ab\r\ncd\r\nef', chunkSize)).toEqual([
        { text: 'ab', line: 1 },
        { text: 'cd', line: 2 },
        { text: 'ef', line: 3 },
      ]);
    }
  });

  it('removes a UTF-8 BOM even when it is split across chunks', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('x\ny')]);
    for (const chunkSize of [1, 2, 3, 7]) {
      expect(await allLines(bytes, chunkSize)).toEqual([
        { text: 'x', line: 1 },
        { text: 'y', line: 2 },
      ]);
    }
  });

  it('keeps multi-byte characters whole across chunk boundaries', async () => {
    const text = 'héllo wörld\n日本語テキスト\n🙂 emoji';
    for (const chunkSize of [1, 2, 3, 5, 7]) {
      expect((await allLines(text, chunkSize)).map((l) => l.text)).toEqual(['héllo wörld', '日本語テキスト', '🙂 emoji']);
    }
  });
});

describe('readText', () => {
  it('reports every byte read', async () => {
    let bytes = 0;
    const parts: string[] = [];
    for await (const t of readText(memorySource('f', 'é'.repeat(10), { chunkSize: 3 }), { onBytes: (n) => (bytes += n) })) parts.push(t);
    expect(bytes).toBe(20);
    expect(parts.join('')).toBe('é'.repeat(10));
  });
});

describe('readChunks', () => {
  it('cancels the stream when the consumer stops early', async () => {
    const source = memorySource('f', 'x'.repeat(100), { chunkSize: 10 });
    for await (const chunk of readChunks(source.stream())) {
      expect(chunk.byteLength).toBe(10);
      break;
    }
    expect(source.stats.cancelled).toBe(true);
    expect(source.stats.bytesPulled).toBe(10);
  });

  it('cancels a pending read when the signal aborts and throws an AbortError', async () => {
    let cancelled = false;
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => undefined), cancel: () => void (cancelled = true) });
    const controller = new AbortController();
    const reading = (async () => {
      for await (const _chunk of readChunks(never, controller.signal)) void _chunk;
    })();
    setTimeout(() => controller.abort(), 5);
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(true);
  });

  it('pulls lazily from the source', async () => {
    let produced = 0;
    const source = generatedSource('g', function* () {
      for (;;) {
        produced++;
        yield 'abc';
      }
    });
    let seen = 0;
    for await (const _chunk of readChunks(source.stream())) if (++seen === 3) break;
    expect(produced).toBeLessThanOrEqual(4);
  });
});
