import { describe, expect, it } from 'vitest';
import { memorySource } from './fixtures/memory-source.ts';
import { readLines, type Line } from './lines.ts';
import { BinaryFileError, decodeTextBytes, INVALID_UTF8_REASON, type TextEncodingChoice } from './text-decoding.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

function utf16(text: string, endian: 'le' | 'be'): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set(endian === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const [hi, lo] = [code >> 8, code & 0xff];
    out.set(endian === 'le' ? [lo, hi] : [hi, lo], 2 + i * 2);
  }
  return out;
}

async function lines(bytes: Uint8Array, chunkSize: number, encoding?: TextEncodingChoice): Promise<Line[]> {
  const out: Line[] = [];
  for await (const group of readLines(memorySource('f.txt', bytes, { chunkSize }), { encoding })) out.push(...group);
  return out;
}

describe('text decoding', () => {
  it('decodes UTF-16 LE and BE by their byte-order mark, in any chunking', async () => {
    for (const endian of ['le', 'be'] as const) {
      for (const chunkSize of [1, 3, 5000]) {
        expect(await lines(utf16('café\r\nnaïve\nend', endian), chunkSize)).toEqual([
          { text: 'café', line: 1 },
          { text: 'naïve', line: 2 },
          { text: 'end', line: 3 },
        ]);
      }
    }
  });

  it('reads CR-only line breaks as line breaks, and CRLF split across chunks as one', async () => {
    for (const chunkSize of [1, 2, 3, 4096, 10000]) {
      expect(await lines(utf8('a\rb\r\rc\r\nd\r'), chunkSize)).toEqual([
        { text: 'a', line: 1 },
        { text: 'b', line: 2 },
        { text: '', line: 3 },
        { text: 'c', line: 4 },
        { text: 'd', line: 5 },
      ]);
    }
  });

  it('names each line that holds invalid UTF-8, keeps the others, and reads them as Latin-1 when asked', async () => {
    // 'cafe9' is café in Latin-1: the byte 0xE9 alone is not UTF-8.
    const bytes = new Uint8Array([...utf8('ok\r'), 0x63, 0x61, 0x66, 0xe9, ...utf8('\r\nfine ü\n'), 0x78, 0xe8, ...utf8('\nlast')]);
    for (const chunkSize of [1, 2, 7, 100]) {
      expect(await lines(bytes, chunkSize)).toEqual([
        { text: 'ok', line: 1 },
        { text: '', line: 2, problem: INVALID_UTF8_REASON },
        { text: 'fine ü', line: 3 },
        { text: '', line: 4, problem: INVALID_UTF8_REASON },
        { text: 'last', line: 5 },
      ]);
    }
    expect((await lines(bytes, 3, 'latin1')).map((l) => l.text)).toEqual(['ok', 'café', 'fine Ã¼', 'xè', 'last']);
  });

  it('refuses binary content with words, and names UTF-16 without a byte-order mark', () => {
    const random = new Uint8Array(600);
    let seed = 7;
    for (let i = 0; i < random.length; i++) random[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    random[10] = 1; // no NUL needed: control bytes alone give it away
    for (let i = 0; i < random.length; i++) if (random[i] === 0) random[i] = 2;
    expect(() => decodeTextBytes(random)).toThrow(BinaryFileError);
    expect(() => decodeTextBytes(random)).toThrow(/binary file/);
    expect(() => decodeTextBytes(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]))).toThrow(/NUL byte at byte 5/);
    const noBom = utf16('hello', 'le').subarray(2);
    expect(() => decodeTextBytes(noBom)).toThrow(/UTF-16 text without a byte-order mark/);
    expect(decodeTextBytes(utf8('tabs\tand\fform feeds\n')).text).toBe('tabs\tand\fform feeds\n');
    expect(() => decodeTextBytes(new Uint8Array(64))).toThrow('it holds nothing but NUL bytes (64 of 64 bytes), so it is not read');
    // A few NUL bytes in text are left to the line readers, which name and skip those lines.
    expect(decodeTextBytes(utf8(`${'a long enough line of text\n'.repeat(3)}one\0nul\n`)).text).toContain('one\0nul');
  });

  it('strips a UTF-8 byte-order mark and keeps U+FFFD written as such when the file is valid', () => {
    expect(decodeTextBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('x\uFFFD')]))).toEqual({ text: 'x\uFFFD', badLines: [] });
  });
});
