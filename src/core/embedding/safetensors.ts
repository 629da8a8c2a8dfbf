// The safetensors format (Hugging Face): an 8-byte little-endian header length, a JSON header naming each tensor's
// dtype, shape and byte range, then the raw little-endian data. Read and written here for document vectors: one
// 2-D tensor of rows × dimensions, with the rows' ids as a JSON array in the header's `__metadata__.ids`.

/** A safetensors file that cannot be read; the message names the file and the field. */
export class SafetensorsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SafetensorsError';
  }
}

/** Element types read here, with their sizes in bytes. */
const DTYPE_BYTES = { F32: 4, F16: 2, BF16: 2, F64: 8 } as const;
type ReadDtype = keyof typeof DTYPE_BYTES;

/** One tensor as the header describes it. */
export interface SafetensorsEntry {
  name: string;
  dtype: string;
  shape: number[];
  /** Byte range inside the data that follows the header. */
  begin: number;
  end: number;
}

/** The header of a safetensors file: its tensors (in data order) and its string metadata. */
export interface SafetensorsHeader {
  tensors: SafetensorsEntry[];
  metadata: Record<string, string>;
  /** Where the data starts in the file (8 + header length). */
  dataStart: number;
}

/** Names preferred for the vectors when a file holds several tensors. */
const VECTOR_TENSOR_NAMES = ['embeddings', 'embedding', 'vectors', 'vector'];

/** The header's upper bound, as the reference implementation has it (100 MB). */
const MAX_HEADER_BYTES = 100_000_000;

/** Reads and checks the header: every range inside the file, matching its shape, and no two tensors overlapping. */
export function readSafetensorsHeader(bytes: Uint8Array, name: string): SafetensorsHeader {
  if (bytes.length < 8) throw new SafetensorsError(`${name}: ${bytes.length} bytes, too short for a safetensors file (an 8-byte header length comes first).`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const low = view.getUint32(0, true);
  const high = view.getUint32(4, true);
  const headerLength = high * 2 ** 32 + low;
  if (headerLength > MAX_HEADER_BYTES || headerLength > bytes.length - 8) {
    throw new SafetensorsError(`${name}: the header length (first 8 bytes) says ${headerLength} bytes, but the file holds ${bytes.length - 8} after it; not a safetensors file, or cut short.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLength)));
  } catch (error) {
    throw new SafetensorsError(`${name}: the header is not JSON (${(error as Error).message}); not a safetensors file?`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SafetensorsError(`${name}: the header is not a JSON object.`);
  const dataStart = 8 + headerLength;
  const dataLength = bytes.length - dataStart;
  const metadata: Record<string, string> = {};
  const tensors: SafetensorsEntry[] = [];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (key === '__metadata__') {
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SafetensorsError(`${name}: __metadata__ must be an object of strings.`);
      for (const [field, text] of Object.entries(value as Record<string, unknown>)) {
        if (typeof text !== 'string') throw new SafetensorsError(`${name}: __metadata__.${field} must be a string (safetensors metadata holds strings; write JSON inside one).`);
        metadata[field] = text;
      }
      continue;
    }
    const entry = value as { dtype?: unknown; shape?: unknown; data_offsets?: unknown } | null;
    if (!entry || typeof entry !== 'object') throw new SafetensorsError(`${name}: tensor "${key}" is not an object with dtype, shape and data_offsets.`);
    if (typeof entry.dtype !== 'string') throw new SafetensorsError(`${name}: tensor "${key}" has no dtype.`);
    const shape = entry.shape;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw new SafetensorsError(`${name}: tensor "${key}": shape must be a list of whole numbers ≥ 0.`);
    const offsets = entry.data_offsets;
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0) || offsets[0] > offsets[1]) {
      throw new SafetensorsError(`${name}: tensor "${key}": data_offsets must be [begin, end] with 0 ≤ begin ≤ end.`);
    }
    const [begin, end] = offsets as [number, number];
    if (end > dataLength) throw new SafetensorsError(`${name}: tensor "${key}": data_offsets [${begin}, ${end}] run past the data (${dataLength} bytes); the file is cut short or damaged.`);
    const size = DTYPE_BYTES[entry.dtype as ReadDtype];
    if (size !== undefined) {
      const expected = (shape as number[]).reduce((a, b) => a * b, 1) * size;
      if (end - begin !== expected) {
        throw new SafetensorsError(`${name}: tensor "${key}": ${end - begin} bytes in data_offsets for shape [${(shape as number[]).join(', ')}] of ${entry.dtype} (${expected} expected).`);
      }
    }
    tensors.push({ name: key, dtype: entry.dtype, shape: shape as number[], begin, end });
  }
  tensors.sort((a, b) => a.begin - b.begin);
  for (let i = 1; i < tensors.length; i++) {
    if (tensors[i]!.begin < tensors[i - 1]!.end) throw new SafetensorsError(`${name}: tensors "${tensors[i - 1]!.name}" and "${tensors[i]!.name}" overlap in data_offsets.`);
  }
  return { tensors, metadata, dataStart };
}

/** A rows × dimensions matrix read from a safetensors file, as float32, with its header's metadata. */
export interface SafetensorsMatrix {
  tensor: string;
  dtype: string;
  values: Float32Array;
  rows: number;
  dims: number;
  metadata: Record<string, string>;
}

/**
 * The file's 2-D tensor of vectors (F32, F16, BF16 or F64), as float32: its only tensor, or among several the one
 * named `embeddings`, `embedding`, `vectors` or `vector`.
 */
export function parseSafetensorsMatrix(bytes: Uint8Array, name: string): SafetensorsMatrix {
  const header = readSafetensorsHeader(bytes, name);
  const { tensors } = header;
  if (tensors.length === 0) throw new SafetensorsError(`${name}: the file holds no tensor.`);
  const entry = tensors.length === 1 ? tensors[0]! : VECTOR_TENSOR_NAMES.map((n) => tensors.find((t) => t.name === n)).find(Boolean);
  if (!entry) {
    throw new SafetensorsError(`${name}: it holds ${tensors.length} tensors (${tensors.map((t) => t.name).join(', ')}); name the vectors one "embeddings" or keep only it.`);
  }
  if (entry.shape.length !== 2) throw new SafetensorsError(`${name}: tensor "${entry.name}": shape [${entry.shape.join(', ')}] is not [rows, dimensions].`);
  const size = DTYPE_BYTES[entry.dtype as ReadDtype];
  if (size === undefined) throw new SafetensorsError(`${name}: tensor "${entry.name}": dtype ${entry.dtype} is not read; save F32, F16, BF16 or F64 vectors.`);
  const [rows, dims] = entry.shape as [number, number];
  const values = new Float32Array(rows * dims);
  const view = new DataView(bytes.buffer, bytes.byteOffset + header.dataStart + entry.begin, entry.end - entry.begin);
  switch (entry.dtype as ReadDtype) {
    case 'F32':
      for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
      break;
    case 'F64':
      for (let i = 0; i < values.length; i++) values[i] = view.getFloat64(i * 8, true);
      break;
    case 'F16':
      for (let i = 0; i < values.length; i++) values[i] = halfToFloat(view.getUint16(i * 2, true));
      break;
    case 'BF16': {
      const word = new DataView(new ArrayBuffer(4));
      for (let i = 0; i < values.length; i++) {
        word.setUint32(0, view.getUint16(i * 2, true) << 16);
        values[i] = word.getFloat32(0);
      }
      break;
    }
  }
  return { tensor: entry.name, dtype: entry.dtype, values, rows, dims, metadata: header.metadata };
}

/** IEEE 754 half precision to a number. */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/**
 * One F32 tensor of rows × dimensions as a safetensors file, with string metadata (the header padded with spaces to
 * a multiple of 8 bytes, as the reference writer does, so the data is aligned).
 */
export function encodeSafetensorsMatrix(tensor: string, values: Float32Array, rows: number, dims: number, metadata: Record<string, string> = {}): Uint8Array {
  if (values.length !== rows * dims) throw new Error(`${values.length} values for ${rows} × ${dims}`);
  const byteLength = values.length * 4;
  const json = JSON.stringify({
    ...(Object.keys(metadata).length > 0 ? { __metadata__: metadata } : {}),
    [tensor]: { dtype: 'F32', shape: [rows, dims], data_offsets: [0, byteLength] },
  });
  let header = new TextEncoder().encode(json);
  const padded = Math.ceil(header.length / 8) * 8;
  if (padded !== header.length) {
    const grown = new Uint8Array(padded).fill(0x20);
    grown.set(header);
    header = grown;
  }
  const out = new Uint8Array(8 + header.length + byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, header.length, true);
  view.setUint32(4, 0, true);
  out.set(header, 8);
  const data = new DataView(out.buffer, 8 + header.length);
  for (let i = 0; i < values.length; i++) data.setFloat32(i * 4, values[i]!, true);
  return out;
}
