/**
 * Bytes of a text file to text, the one way every reader decodes: a byte-order mark picks UTF-8, UTF-16LE or
 * UTF-16BE; without one the file is read as UTF-8 (or Latin-1 when asked). Line breaks (LF, CRLF, lone CR) all
 * come out as '\n'. Lines holding bytes that are not valid UTF-8 are named, so readers can report and skip them
 * instead of loading U+FFFD silently. A file whose first bytes look binary is refused (a few NUL bytes do not make it so).
 */

/** The encoding assumed for a file without a byte-order mark. `latin1` is Windows-1252, as browsers read Latin-1. */
export type TextEncodingChoice = 'utf-8' | 'latin1';

export const TEXT_ENCODINGS: readonly TextEncodingChoice[] = ['utf-8', 'latin1'];

/** Decoded text; line breaks are '\n'. */
export interface DecodedText {
  text: string;
  /** 1-based numbers (over the whole file) of lines that held invalid UTF-8; U+FFFD stands in their text. */
  badLines: number[];
}

/** Why a line that held invalid UTF-8 is not read. */
export const INVALID_UTF8_REASON = 'the line is not valid UTF-8 (if the file is Latin-1, load it with the Latin-1 encoding)';

/** Bytes examined for the binary check. */
const SNIFF_BYTES = 4096;
/** Share of control bytes (other than tab, line breaks, form feed, escape) above which a file is taken as binary. */
const MAX_CONTROL_SHARE = 0.05;

/** A file refused because it is not text. */
export class BinaryFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BinaryFileError';
  }
}

/**
 * Turns line breaks into '\n' across chunk boundaries (a CR ending one chunk and an LF starting the next are one
 * break). With `keepCrlf`, CRLF is left as it is and only a lone CR becomes '\n' (for CSV, whose quoted fields
 * keep their line breaks); a CR ending a chunk then waits for the next chunk.
 */
export class LineBreakNormalizer {
  /** Line breaks seen so far. */
  breaks = 0;
  private pendingCr = false;
  private readonly keepCrlf: boolean;

  constructor(keepCrlf = false) {
    this.keepCrlf = keepCrlf;
  }

  normalize(text: string, final = false): string {
    let prefix = '';
    if (this.pendingCr && text.length > 0) {
      if (text.charCodeAt(0) === 10) {
        text = text.slice(1);
        if (this.keepCrlf) prefix = '\r\n';
      } else if (this.keepCrlf) prefix = '\n';
      this.pendingCr = false;
    } else if (this.pendingCr && final) {
      this.pendingCr = false;
      if (this.keepCrlf) prefix = '\n';
    }
    if (text.length > 0 && text.charCodeAt(text.length - 1) === 13) {
      this.pendingCr = true;
      if (this.keepCrlf) text = final ? text.slice(0, -1) + '\n' : text.slice(0, -1);
      if (this.keepCrlf && final) this.pendingCr = false;
    }
    let out = text;
    if (text.includes('\r')) out = this.keepCrlf ? text.replace(/\r(?!\n)/g, '\n') : text.replace(/\r\n?/g, '\n');
    out = prefix + out;
    this.breaks += countLineFeeds(out);
    return out;
  }

  /** The number of the line that the next text starts. */
  get nextLine(): number {
    return this.breaks + 1 + (this.keepCrlf && this.pendingCr ? 1 : 0);
  }

  /** Whether the last text ended with a CR (so an LF starting the next is not a new break). */
  get endsWithCr(): boolean {
    return this.pendingCr;
  }
}

type Mode = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';

/** Decodes a file pushed chunk by chunk; `push` and `finish` throw a BinaryFileError for a binary file. */
export class TextFileDecoder {
  private readonly choice: TextEncodingChoice;
  private mode: Mode | undefined;
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private streamDecoder: TextDecoder | undefined;
  private readonly fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  /** UTF-8: bytes after the last line break, waiting for the rest of their line. */
  private carry: Uint8Array[] = [];
  private readonly breaks: LineBreakNormalizer;

  /** `keepCrlf`: see LineBreakNormalizer. */
  constructor(encoding: TextEncodingChoice = 'utf-8', options: { keepCrlf?: boolean } = {}) {
    this.breaks = new LineBreakNormalizer(options.keepCrlf);
    if (!TEXT_ENCODINGS.includes(encoding)) throw new RangeError(`encoding must be one of ${TEXT_ENCODINGS.join(', ')}, not '${String(encoding)}'`);
    this.choice = encoding;
  }

  push(bytes: Uint8Array): DecodedText {
    if (this.mode === undefined) {
      this.head.push(bytes);
      this.headBytes += bytes.byteLength;
      if (this.headBytes < SNIFF_BYTES) return { text: '', badLines: [] };
      return this.decode(this.start(), false);
    }
    return this.decode(bytes, false);
  }

  finish(): DecodedText {
    const rest = this.mode === undefined ? this.start() : new Uint8Array(0);
    return this.decode(rest, true);
  }

  /** Picks the encoding from the first bytes and checks they are text; returns the bytes after the BOM. */
  private start(): Uint8Array {
    const head = concat(this.head);
    this.head = [];
    let skip = 0;
    if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) [this.mode, skip] = ['utf-8', 3];
    else if (head[0] === 0xff && head[1] === 0xfe) [this.mode, skip] = ['utf-16le', 2];
    else if (head[0] === 0xfe && head[1] === 0xff) [this.mode, skip] = ['utf-16be', 2];
    else this.mode = this.choice;
    const body = head.subarray(skip);
    if (this.mode === 'utf-8' || this.mode === 'latin1') checkNotBinary(body.subarray(0, SNIFF_BYTES));
    if (this.mode !== 'utf-8') this.streamDecoder = new TextDecoder(this.mode === 'latin1' ? 'windows-1252' : this.mode, { ignoreBOM: true });
    return body;
  }

  private decode(bytes: Uint8Array, final: boolean): DecodedText {
    if (this.streamDecoder) {
      const text = this.streamDecoder.decode(bytes, { stream: !final });
      return { text: this.breaks.normalize(text, final), badLines: [] };
    }
    let block: Uint8Array;
    if (final) {
      block = concat([...this.carry, bytes]);
      this.carry = [];
    } else {
      const lastLf = bytes.lastIndexOf(10);
      const crAfter = bytes.subarray(lastLf + 1).lastIndexOf(13);
      const last = crAfter >= 0 ? lastLf + 1 + crAfter : lastLf;
      if (last < 0) {
        if (bytes.byteLength > 0) this.carry.push(bytes);
        return { text: '', badLines: [] };
      }
      block = concat([...this.carry, bytes.subarray(0, last + 1)]);
      this.carry = last + 1 < bytes.byteLength ? [bytes.slice(last + 1)] : [];
    }
    if (block.byteLength === 0) return { text: this.breaks.normalize('', final), badLines: [] };
    const firstLine = this.breaks.nextLine;
    const skipLf = this.breaks.endsWithCr;
    try {
      return { text: this.breaks.normalize(this.fatal.decode(block), final), badLines: [] };
    } catch {
      const badLines = invalidUtf8Lines(block, firstLine, skipLf, this.fatal);
      return { text: this.breaks.normalize(this.lenient.decode(block), final), badLines };
    }
  }
}

const LF_RUN = /\n+/y;

/** The number of '\n' in a text; a run of them (blank lines) is counted in one native step. */
function countLineFeeds(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; ) {
    if (text.charCodeAt(i + 1) === 10) {
      LF_RUN.lastIndex = i;
      const run = LF_RUN.exec(text)![0].length;
      n += run;
      i = text.indexOf('\n', i + run);
    } else {
      n++;
      i = text.indexOf('\n', i + 1);
    }
  }
  return n;
}

/** Decodes a whole file held in memory. */
export function decodeTextBytes(bytes: Uint8Array, encoding: TextEncodingChoice = 'utf-8'): DecodedText {
  const decoder = new TextFileDecoder(encoding);
  const first = decoder.push(bytes);
  const rest = decoder.finish();
  return { text: first.text + rest.text, badLines: [...first.badLines, ...rest.badLines] };
}

/** The numbers of the lines of `block` (which starts at a line start) that are not valid UTF-8. */
function invalidUtf8Lines(block: Uint8Array, firstLine: number, skipLf: boolean, fatal: TextDecoder): number[] {
  const bad: number[] = [];
  let line = firstLine;
  let start = skipLf && block[0] === 10 ? 1 : 0;
  for (let i = start; i <= block.byteLength; i++) {
    const byte = i < block.byteLength ? block[i] : -1;
    if (byte !== 10 && byte !== 13 && byte !== -1) continue;
    try {
      fatal.decode(block.subarray(start, i));
    } catch {
      bad.push(line);
    }
    if (byte === -1) break;
    if (byte === 13 && block[i + 1] === 10) i++;
    start = i + 1;
    line++;
  }
  return bad;
}

/**
 * Refuses what is not text: NUL bytes in every other position (UTF-16 without a byte-order mark), nothing but NUL
 * bytes, or more than MAX_CONTROL_SHARE control bytes. A few NUL bytes in text do not refuse the file: the lines
 * that hold them are named and skipped by the line readers.
 */
function checkNotBinary(sample: Uint8Array): void {
  const n = sample.byteLength;
  if (n === 0) return;
  let nuls = 0;
  let oddNuls = 0;
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const byte = sample[i]!;
    if (byte === 0) {
      nuls++;
      if (i % 2 === 1) oddNuls++;
    }
    if ((byte < 32 && byte !== 9 && byte !== 10 && byte !== 11 && byte !== 12 && byte !== 13 && byte !== 27) || byte === 127) controls++;
  }
  if (nuls === n) throw new BinaryFileError(`it holds nothing but NUL bytes (${n} of ${n} bytes), so it is not read`);
  const evenNuls = nuls - oddNuls;
  const half = n / 2;
  const alternating = (many: number, few: number) => many >= 0.3 * half && few <= 0.02 * half;
  if (n >= 4 && (alternating(oddNuls, evenNuls) || alternating(evenNuls, oddNuls))) {
    throw new BinaryFileError('it looks like UTF-16 text without a byte-order mark, so it is not read: save it as UTF-8 (or as UTF-16 with a byte-order mark)');
  }
  if (controls / n > MAX_CONTROL_SHARE) {
    throw new BinaryFileError(
      nuls > 0
        ? `it looks like a binary file, not text (a NUL byte at byte ${sample.indexOf(0) + 1}), so it is not read`
        : `it looks like a binary file, not text (${controls} control bytes in its first ${n}), so it is not read`,
    );
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
