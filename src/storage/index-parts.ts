// Large typed arrays of an index are stored as several rows: no single IndexedDB value of hundreds of MB, which
// browsers copy in one piece on write and read (and may refuse). Parts are Blobs: Chromium reads a stored Blob's
// bytes about 2.4 times faster than it deserialises a stored typed array of the same size (320 MB: 1.2 s vs 2.8 s),
// and several are read at once. Parts written as typed arrays (before Blobs) are still read.

type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

const CONSTRUCTORS = { Uint8Array, Uint16Array, Uint32Array, Int32Array, Float32Array, Float64Array };
type TypedName = keyof typeof CONSTRUCTORS;

/** What stands in the stored head for an array kept in parts. */
interface PartRef {
  storedInParts: true;
  path: string;
  type: TypedName;
  length: number;
  parts: number;
}

export interface IndexPart {
  /** Where the array sits in the value, e.g. `compact.postingDocs`, and which part of it this is. */
  path: string;
  part: number;
  /** The part's bytes (`blob`), or, as written before Blobs, its elements (`data`). */
  blob?: Blob;
  data?: Typed;
}

/** 32 MB per part. */
export const INDEX_PART_BYTES = 32 << 20;
/** Arrays above this size leave the head for parts, so that the head (strings, small arrays) reads quickly. */
export const INDEX_PART_MIN_BYTES = 64 << 10;
/** Parts read at once: enough to keep the disk busy, few enough that little is held twice. */
const PARALLEL_READS = 4;

function isTyped(value: unknown): value is Typed {
  return ArrayBuffer.isView(value) && !(value instanceof DataView) && value.constructor.name in CONSTRUCTORS;
}

function isPartRef(value: unknown): value is PartRef {
  return typeof value === 'object' && value !== null && (value as PartRef).storedInParts === true;
}

/**
 * The value with every typed array larger than `minBytes` replaced by a reference, and those arrays' parts (Blobs
 * of at most `partBytes`).
 */
export function splitIntoParts<T>(value: T, partBytes = INDEX_PART_BYTES, minBytes = Math.min(partBytes, INDEX_PART_MIN_BYTES)): { head: T; parts: IndexPart[] } {
  const parts: IndexPart[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (isTyped(node)) {
      if (node.byteLength <= minBytes) return node;
      const per = Math.max(1, Math.floor(partBytes / node.BYTES_PER_ELEMENT));
      const count = Math.ceil(node.length / per);
      // A Blob of a view copies only the view's bytes.
      for (let i = 0; i < count; i++) parts.push({ path, part: i, blob: new Blob([node.subarray(i * per, (i + 1) * per) as Uint8Array<ArrayBuffer>]) });
      const ref: PartRef = { storedInParts: true, path, type: node.constructor.name as TypedName, length: node.length, parts: count };
      return ref;
    }
    if (Array.isArray(node) || typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child, path ? `${path}.${key}` : key)]));
  };
  return { head: walk(value, '') as T, parts };
}

/** The value `splitIntoParts` split; rejects naming the array when a part is missing. */
export async function joinParts<T>(head: T, parts: readonly IndexPart[]): Promise<T> {
  const byPath = new Map<string, IndexPart[]>();
  for (const p of parts) byPath.set(p.path, [...(byPath.get(p.path) ?? []), p]);
  // Every part's place in its array, then the reads, a few at a time, each copied in as it arrives.
  const reads: Array<() => Promise<void>> = [];
  const walk = (node: unknown): unknown => {
    if (isPartRef(node)) {
      const found = (byPath.get(node.path) ?? []).sort((a, b) => a.part - b.part);
      if (found.length !== node.parts) throw new Error(`The stored index is incomplete: ${node.path} has ${found.length} of ${node.parts} parts`);
      const out = new CONSTRUCTORS[node.type](node.length);
      let at = 0;
      for (const p of found) {
        const start = at;
        if (p.blob) {
          const blob = p.blob;
          at += blob.size / out.BYTES_PER_ELEMENT;
          reads.push(async () => out.set(new CONSTRUCTORS[node.type](await blob.arrayBuffer()) as never, start));
        } else {
          out.set(p.data as never, at);
          at += p.data!.length;
        }
      }
      if (at !== node.length) throw new Error(`The stored index is damaged: ${node.path} has ${at} of ${node.length} values`);
      return out;
    }
    if (isTyped(node) || Array.isArray(node) || typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
  };
  const joined = walk(head) as T;
  let next = 0;
  const worker = async () => {
    while (next < reads.length) await reads[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, reads.length) }, worker));
  return joined;
}
