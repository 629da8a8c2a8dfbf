// The corpus snapshot file format (version 1): a stream of frames, checksummed per section, written and read
// without holding the whole file. Layout:
//   "DSWSNAP1\n"
//   frame*: u32 LE header length · header JSON (UTF-8) · the header's binary blobs, one after another
// A header is {t: 'begin'|'item'|'end'|'finish', s: section, v?: value, b?: [[type, byteLength], ...]}; typed arrays
// in `v` are replaced by {"$blob": i} and travel as raw bytes. A section's `end` holds its item count and the
// SHA-256 of all its item frames' bytes; `finish` lists the sections, so a truncated file is always detected.
import { Sha256, toHex } from '../text/index.ts';

export const SNAPSHOT_MAGIC = 'DSWSNAP1\n';
export const SNAPSHOT_VERSION = 1;

const TYPED = { Float32Array, Int32Array, Uint32Array, Uint16Array, Uint8Array, Float64Array } as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A snapshot file that cannot be read: damaged, truncated or not a snapshot. Nothing was stored from it. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

interface Header {
  t: 'begin' | 'item' | 'end' | 'finish';
  s?: string;
  v?: unknown;
  b?: [TypedName, number][];
  items?: number;
  sha256?: string;
  sections?: string[];
  version?: number;
}

function frame(header: Header, blobs: Typed[] = []): Uint8Array[] {
  const json = encoder.encode(JSON.stringify(header));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, json.length, true);
  return [length, json, ...blobs.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength))];
}

function extractBlobs(value: unknown, blobs: Typed[]): unknown {
  if (ArrayBuffer.isView(value)) {
    const name = value.constructor.name as TypedName;
    if (!(name in TYPED)) throw new Error(`A ${name} cannot be written to a snapshot`);
    blobs.push(value as Typed);
    return { $blob: blobs.length - 1 };
  }
  if (Array.isArray(value)) return value.map((v) => extractBlobs(v, blobs));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, extractBlobs(v, blobs)]));
  }
  return value;
}

function restoreBlobs(value: unknown, blobs: Typed[]): unknown {
  if (Array.isArray(value)) return value.map((v) => restoreBlobs(v, blobs));
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.$blob === 'number' && Object.keys(o).length === 1) {
      const blob = blobs[o.$blob];
      if (!blob) throw new SnapshotError('The snapshot is damaged: a value refers to binary data that is not there.');
      return blob;
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, restoreBlobs(v, blobs)]));
  }
  return value;
}

/** Writes a snapshot as chunks: call `section` for each section in order, then `finish`. */
export class SnapshotWriter {
  private current: { name: string; hash: Sha256; items: number } | null = null;
  private readonly names: string[] = [];

  /** The magic line; the first chunk of the file. */
  start(): Uint8Array[] {
    return [encoder.encode(SNAPSHOT_MAGIC), ...frame({ t: 'begin', s: 'snapshot', version: SNAPSHOT_VERSION })];
  }

  begin(section: string): Uint8Array[] {
    if (this.current) throw new Error(`Section ${this.current.name} is still open`);
    this.current = { name: section, hash: new Sha256(), items: 0 };
    this.names.push(section);
    return frame({ t: 'begin', s: section });
  }

  item(value: unknown): Uint8Array[] {
    const section = this.current;
    if (!section) throw new Error('No section is open');
    const blobs: Typed[] = [];
    const v = extractBlobs(value, blobs);
    const chunks = frame({ t: 'item', s: section.name, v, b: blobs.map((b) => [b.constructor.name as TypedName, b.byteLength]) }, blobs);
    for (const c of chunks) section.hash.update(c);
    section.items++;
    return chunks;
  }

  end(): Uint8Array[] {
    const section = this.current;
    if (!section) throw new Error('No section is open');
    this.current = null;
    return frame({ t: 'end', s: section.name, items: section.items, sha256: toHex(section.hash.digest()) });
  }

  finish(): Uint8Array[] {
    return frame({ t: 'finish', sections: [...this.names] });
  }
}

/** One item read from a snapshot, in file order. */
export interface SnapshotItem {
  section: string;
  value: unknown;
}

/** Reads bytes from a stream on demand. */
class ByteReader {
  private buffer = new Uint8Array(0);
  private offset = 0;
  bytesRead = 0;
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Exactly `n` bytes; null at a clean end of stream before any byte; throws when the stream ends midway. */
  async read(n: number): Promise<Uint8Array | null> {
    while (this.buffer.length - this.offset < n) {
      const { done, value } = await this.reader.read();
      if (done) {
        if (this.buffer.length - this.offset === 0) return null;
        throw new SnapshotError(`The snapshot is truncated: it ends in the middle of a record (after ${this.bytesRead + (this.buffer.length - this.offset)} bytes).`);
      }
      const rest = this.buffer.subarray(this.offset);
      const next = new Uint8Array(rest.length + value.length);
      next.set(rest);
      next.set(value, rest.length);
      this.buffer = next;
      this.offset = 0;
    }
    const out = this.buffer.slice(this.offset, this.offset + n);
    this.offset += n;
    this.bytesRead += n;
    return out;
  }
}

const MAX_HEADER = 64 * 1024 * 1024;

/**
 * Reads a snapshot stream item by item, checking each section's checksum at its end and the file's completeness
 * at `finish`. Throws SnapshotError with words for a foreign, newer, damaged or truncated file. `onBytes` reports
 * bytes read (for progress).
 */
export async function* readSnapshot(stream: ReadableStream<Uint8Array>, onBytes?: (bytes: number) => void): AsyncGenerator<SnapshotItem> {
  const reader = stream.getReader();
  const bytes = new ByteReader(reader);
  try {
    const magic = await bytes.read(SNAPSHOT_MAGIC.length).catch(() => null);
    if (!magic || String.fromCharCode(...magic) !== SNAPSHOT_MAGIC) {
      throw new SnapshotError('This file is not a workbench corpus snapshot (it does not start with "DSWSNAP1").');
    }
    const first = await readFrame(bytes);
    if (!first || first.header.t !== 'begin' || first.header.s !== 'snapshot') throw new SnapshotError('The snapshot is damaged: its first record is not the snapshot header.');
    if (first.header.version !== SNAPSHOT_VERSION) throw new SnapshotError(`This snapshot is format version ${String(first.header.version)}; this workbench reads version ${SNAPSHOT_VERSION}.`);
    let open: { name: string; hash: Sha256; items: number } | null = null;
    const seen: string[] = [];
    for (;;) {
      const next = await readFrame(bytes);
      onBytes?.(bytes.bytesRead);
      if (!next) throw new SnapshotError(`The snapshot is truncated: it ends ${open ? `inside the section "${open.name}"` : 'before its closing record'}.`);
      const { header, raw, blobs } = next;
      if (header.t === 'begin') {
        if (open) throw new SnapshotError(`The snapshot is damaged: section "${header.s}" starts inside "${open.name}".`);
        open = { name: String(header.s), hash: new Sha256(), items: 0 };
        seen.push(open.name);
      } else if (header.t === 'item') {
        if (!open || header.s !== open.name) throw new SnapshotError('The snapshot is damaged: a record lies outside its section.');
        for (const c of raw) open.hash.update(c);
        open.items++;
        yield { section: open.name, value: restoreBlobs(header.v, blobs) };
      } else if (header.t === 'end') {
        if (!open || header.s !== open.name) throw new SnapshotError('The snapshot is damaged: a section ends that was not open.');
        const sha = toHex(open.hash.digest());
        if (header.items !== open.items || header.sha256 !== sha) {
          throw new SnapshotError(`The snapshot is damaged: the section "${open.name}" does not match its checksum (${open.items} records read, ${String(header.items)} written).`);
        }
        open = null;
      } else if (header.t === 'finish') {
        if (open) throw new SnapshotError(`The snapshot is damaged: it closes inside the section "${open.name}".`);
        if (JSON.stringify(header.sections) !== JSON.stringify(seen)) throw new SnapshotError('The snapshot is damaged: its list of sections does not match what it holds.');
        return;
      } else {
        throw new SnapshotError('The snapshot is damaged: a record of an unknown kind.');
      }
    }
  } finally {
    reader.releaseLock();
  }
}

async function readFrame(bytes: ByteReader): Promise<{ header: Header; raw: Uint8Array[]; blobs: Typed[] } | null> {
  const lengthBytes = await bytes.read(4);
  if (!lengthBytes) return null;
  const length = new DataView(lengthBytes.buffer, lengthBytes.byteOffset, 4).getUint32(0, true);
  if (length === 0 || length > MAX_HEADER) throw new SnapshotError('The snapshot is damaged: a record header has an impossible length.');
  const json = await bytes.read(length);
  if (!json) throw new SnapshotError('The snapshot is truncated: it ends in the middle of a record.');
  let header: Header;
  try {
    header = JSON.parse(decoder.decode(json)) as Header;
  } catch {
    throw new SnapshotError('The snapshot is damaged: a record header is not readable.');
  }
  const raw = [lengthBytes, json];
  const blobs: Typed[] = [];
  for (const [name, byteLength] of header.b ?? []) {
    const Ctor = TYPED[name];
    if (!Ctor || !Number.isSafeInteger(byteLength) || byteLength < 0 || byteLength % Ctor.BYTES_PER_ELEMENT !== 0) {
      throw new SnapshotError('The snapshot is damaged: a binary block has an impossible type or size.');
    }
    const data = await bytes.read(byteLength);
    if (!data && byteLength > 0) throw new SnapshotError('The snapshot is truncated: it ends inside binary data.');
    const copy = data ?? new Uint8Array(0);
    raw.push(copy);
    blobs.push(new Ctor(copy.buffer as ArrayBuffer, copy.byteOffset, byteLength / Ctor.BYTES_PER_ELEMENT) as Typed);
  }
  return { header, raw, blobs };
}
