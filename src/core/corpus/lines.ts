import { abortError } from '../abort/index.ts';
import type { FileSource } from './source.ts';
import { INVALID_UTF8_REASON, TextFileDecoder, type DecodedText, type TextEncodingChoice } from './text-decoding.ts';

/** How a file is read: cancellation and byte accounting. */
export interface ReadOptions {
  /** Aborting cancels the stream reader and makes the reading loop throw an AbortError. */
  signal?: AbortSignal;
  /** Called with the size of every chunk of bytes read. */
  onBytes?(bytes: number): void;
  /** Encoding of a file without a byte-order mark; default UTF-8. */
  encoding?: TextEncodingChoice;
}

/** One line of a text file, without its line break. */
export interface Line {
  text: string;
  /** 1-based. */
  line: number;
  /** Why the line cannot be read (it held invalid UTF-8); its text is then ''. */
  problem?: string;
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

/** Decodes a file chunk by chunk (see TextFileDecoder): BOM-chosen encoding, line breaks as '\n', invalid UTF-8 lines named. */
export async function* readDecoded(source: FileSource, options: ReadOptions & { keepCrlf?: boolean } = {}): AsyncGenerator<DecodedText> {
  const decoder = new TextFileDecoder(options.encoding, options);
  for await (const bytes of readChunks(source.stream(), options.signal)) {
    options.onBytes?.(bytes.byteLength);
    const decoded = decoder.push(bytes);
    if (decoded.text || decoded.badLines.length > 0) yield decoded;
  }
  const tail = decoder.finish();
  if (tail.text || tail.badLines.length > 0) yield tail;
}

/** The text of a file, chunk by chunk (a character split between chunks is kept whole); see readDecoded. */
export async function* readText(source: FileSource, options: ReadOptions = {}): AsyncGenerator<string> {
  for await (const { text } of readDecoded(source, options)) if (text) yield text;
}

const BLANK_RUN = /\n+/y;

/**
 * Splits decoded text into numbered lines: the one line splitter of every reader. Lines named as invalid UTF-8
 * carry a `problem`. With `skipEmpty`, empty lines are counted but not returned (so blank lines cost nothing).
 */
export class LineSplitter {
  private partial: string[] = [];
  private line = 0;
  private readonly bad = new Set<number>();
  private readonly skipEmpty: boolean;

  constructor(options: { skipEmpty?: boolean } = {}) {
    this.skipEmpty = options.skipEmpty ?? false;
  }

  push(text: string, badLines: readonly number[] = []): Line[] {
    for (const n of badLines) this.bad.add(n);
    const lines: Line[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      if (nl === start && this.partial.length === 0 && this.skipEmpty && this.bad.size === 0) {
        // A run of empty lines is skipped in one native step.
        BLANK_RUN.lastIndex = start;
        const run = BLANK_RUN.exec(text)![0].length;
        this.line += run;
        start += run;
        continue;
      }
      let piece = text.slice(start, nl);
      if (this.partial.length > 0) {
        this.partial.push(piece);
        piece = this.partial.join('');
        this.partial = [];
      }
      this.emit(piece, lines);
      start = nl + 1;
    }
    if (start < text.length) this.partial.push(text.slice(start));
    return lines;
  }

  finish(): Line[] {
    const lines: Line[] = [];
    if (this.partial.length > 0) this.emit(this.partial.join(''), lines);
    this.partial = [];
    return lines;
  }

  private emit(text: string, out: Line[]): void {
    const line = ++this.line;
    if (this.bad.size > 0 && this.bad.delete(line)) out.push({ text: '', line, problem: INVALID_UTF8_REASON });
    else if (text.includes('\0')) out.push({ text: '', line, problem: nulByteReason(text) });
    else if (!(this.skipEmpty && text === '')) out.push({ text, line });
  }
}

/** Why a line holding a NUL byte is not read (the rest of its file is). */
export function nulByteReason(text: string): string {
  return `the line holds a NUL byte (at character ${text.indexOf('\0') + 1}), so it is not read`;
}

/**
 * Splits a file into lines, yielded in groups (one group per decoded chunk). Handles LF, CRLF and lone CR and a
 * last line without a line break; a line is never longer in memory than the line itself.
 */
export async function* readLines(source: FileSource, options: ReadOptions & { skipEmpty?: boolean } = {}): AsyncGenerator<Line[]> {
  const splitter = new LineSplitter(options);
  for await (const { text, badLines } of readDecoded(source, options)) {
    const lines = splitter.push(text, badLines);
    if (lines.length > 0) yield lines;
  }
  const last = splitter.finish();
  if (last.length > 0) yield last;
}
