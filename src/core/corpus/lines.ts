import { abortError } from './abort.ts';
import type { FileSource } from './source.ts';

/** How a file is read: cancellation and byte accounting. */
export interface ReadOptions {
  /** Aborting cancels the stream reader and makes the reading loop throw an AbortError. */
  signal?: AbortSignal;
  /** Called with the size of every chunk of bytes read. */
  onBytes?(bytes: number): void;
}

/** One line of a text file, without its line break. */
export interface Line {
  text: string;
  /** 1-based. */
  line: number;
}

/** Yields the chunks of a byte stream; cancels the reader when the signal aborts or the consumer stops early. */
export async function* readChunks(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (signal?.aborted) throw abortError();
  const reader = stream.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw abortError();
      if (done) {
        finished = true;
        return;
      }
      if (value.byteLength > 0) yield value;
      if (signal?.aborted) throw abortError();
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** Decodes a file as UTF-8, chunk by chunk (a character split between chunks is kept whole); a leading BOM is removed. */
export async function* readText(source: FileSource, options: ReadOptions = {}): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let atStart = true;
  const strip = (text: string): string => {
    if (!atStart || text.length === 0) return text;
    atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  for await (const bytes of readChunks(source.stream(), options.signal)) {
    options.onBytes?.(bytes.byteLength);
    const text = strip(decoder.decode(bytes, { stream: true }));
    if (text) yield text;
  }
  const tail = strip(decoder.decode());
  if (tail) yield tail;
}

/**
 * Splits a file into lines, yielded in groups (one group per decoded chunk). Handles LF and CRLF and a last
 * line without a line break; a line is never longer in memory than the line itself.
 */
export async function* readLines(source: FileSource, options: ReadOptions = {}): AsyncGenerator<Line[]> {
  let partial: string[] = [];
  let line = 0;
  for await (const text of readText(source, options)) {
    const lines: Line[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      let piece = text.slice(start, nl);
      if (partial.length > 0) {
        partial.push(piece);
        piece = partial.join('');
        partial = [];
      }
      lines.push({ text: withoutCarriageReturn(piece), line: ++line });
      start = nl + 1;
    }
    if (start < text.length) partial.push(text.slice(start));
    if (lines.length > 0) yield lines;
  }
  if (partial.length > 0) yield [{ text: withoutCarriageReturn(partial.join('')), line: ++line }];
}

function withoutCarriageReturn(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
