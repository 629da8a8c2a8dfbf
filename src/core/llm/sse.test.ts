import { describe, expect, it } from 'vitest';
import { SseDecoder } from './sse.ts';

function decodeInPieces(text: string, size: number): string[] {
  const decoder = new SseDecoder();
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...decoder.push(text.slice(i, i + size)));
  out.push(...decoder.end());
  return out;
}

describe('SseDecoder', () => {
  const stream = 'data: {"a":1}\n\n: keep-alive comment\n\ndata:{"b":2}\n\nevent: x\nid: 3\ndata: [DONE]\n\n';

  it('returns the data of each event', () => {
    expect(decodeInPieces(stream, stream.length)).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
  });

  it('gives the same events whatever the chunk boundaries', () => {
    for (const size of [1, 2, 3, 5, 7, 13]) {
      expect(decodeInPieces(stream, size)).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
    }
  });

  it('accepts CRLF and CR line endings, also split between chunks', () => {
    const crlf = 'data: x\r\n\r\ndata: y\r\n\r\n';
    for (const size of [1, 2, 3]) expect(decodeInPieces(crlf, size)).toEqual(['x', 'y']);
    expect(decodeInPieces('data: x\r\rdata: y\r\r', 1)).toEqual(['x', 'y']);
  });

  it('joins the data lines of one event with a newline', () => {
    expect(decodeInPieces('data: line 1\ndata: line 2\n\n', 4)).toEqual(['line 1\nline 2']);
  });

  it('delivers a last event that lacks the final blank line', () => {
    expect(decodeInPieces('data: a\n\ndata: b', 3)).toEqual(['a', 'b']);
  });

  it('removes only one space after the colon', () => {
    expect(decodeInPieces('data:  two spaces\n\n', 100)).toEqual([' two spaces']);
  });
});
