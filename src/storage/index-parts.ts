// Large typed arrays of an index are stored as several rows: no single IndexedDB value of hundreds of MB, which
// browsers copy in one piece on write and read (and may refuse).

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
  data: Typed;
}

/** 32 MB per part. */
export const INDEX_PART_BYTES = 32 << 20;

function isTyped(value: unknown): value is Typed {
  return ArrayBuffer.isView(value) && !(value instanceof DataView) && value.constructor.name in CONSTRUCTORS;
}

function isPartRef(value: unknown): value is PartRef {
  return typeof value === 'object' && value !== null && (value as PartRef).storedInParts === true;
}

/** The value with every typed array larger than `partBytes` replaced by a reference, and those arrays' parts. */
export function splitIntoParts<T>(value: T, partBytes = INDEX_PART_BYTES): { head: T; parts: IndexPart[] } {
  const parts: IndexPart[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (isTyped(node)) {
      if (node.byteLength <= partBytes) return node;
      const per = Math.max(1, Math.floor(partBytes / node.BYTES_PER_ELEMENT));
      const count = Math.ceil(node.length / per);
      // slice, not subarray: a clone of a view copies its whole buffer.
      for (let i = 0; i < count; i++) parts.push({ path, part: i, data: node.slice(i * per, (i + 1) * per) });
      const ref: PartRef = { storedInParts: true, path, type: node.constructor.name as TypedName, length: node.length, parts: count };
      return ref;
    }
    if (Array.isArray(node) || typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child, path ? `${path}.${key}` : key)]));
  };
  return { head: walk(value, '') as T, parts };
}

/** The value `splitIntoParts` split; throws naming the array when a part is missing. */
export function joinParts<T>(head: T, parts: readonly IndexPart[]): T {
  const byPath = new Map<string, IndexPart[]>();
  for (const p of parts) byPath.set(p.path, [...(byPath.get(p.path) ?? []), p]);
  const walk = (node: unknown): unknown => {
    if (isPartRef(node)) {
      const found = (byPath.get(node.path) ?? []).sort((a, b) => a.part - b.part);
      if (found.length !== node.parts) throw new Error(`The stored index is incomplete: ${node.path} has ${found.length} of ${node.parts} parts`);
      const out = new CONSTRUCTORS[node.type](node.length);
      let at = 0;
      for (const p of found) {
        out.set(p.data as never, at);
        at += p.data.length;
      }
      return out;
    }
    if (isTyped(node) || Array.isArray(node) || typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
  };
  return walk(head) as T;
}
