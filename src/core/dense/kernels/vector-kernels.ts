import { PLAIN_MEMORY_KERNELS, SHARED_MEMORY_KERNELS } from './vector-kernels.wasm.gen.ts';

/**
 * The scan kernels of the dense searches, over one WebAssembly memory. Every argument is a byte offset
 * into that memory (or a count); strides are multiples of 64 bytes for int8 and float32 rows, 16 for bit rows. Both
 * implementations give identical results: the arithmetic is integer, or float32 in one fixed order.
 */
export interface VectorKernels {
  /** `wasm-simd`: compiled from vector-kernels.wat; `js`: the plain fallback. */
  readonly kind: 'wasm-simd' | 'js';
  /**
   * out[r] (float32) = scales[r] × Σ_j codes[r][j] × query[j], for `rows` rows of `stride` int8 codes and an int16
   * query (`stride` values), with |Σ| < 2^31. Returns the largest out[r] (−Infinity for no rows).
   */
  dotInt8(codes: number, query: number, stride: number, rows: number, scales: number, out: number): number;
  /**
   * out[r] (float32) = Σ_j rows[r][j] × query[j] for `count` float32 rows of `stride` bytes, summed in float32 in the
   * kernel's fixed order (16 running sums, lane j mod 16, then combined pairwise). Returns the largest out[r].
   */
  dotF32(rows: number, query: number, stride: number, count: number, out: number): number;
  /** out[r] (int32) = number of differing bits of codes[r] and query, rows of `stride` bytes. Returns the smallest. */
  hamming(codes: number, query: number, stride: number, rows: number, out: number): number;
  /** Reads every byte of [ptr, ptr + bytes) once (bytes a multiple of 64): the memory-bandwidth floor. */
  scanFloor(ptr: number, bytes: number): number;
}

export type KernelChoice = 'auto' | 'wasm-simd' | 'js';

const compiled = new Map<boolean, WebAssembly.Module | null>();

function isShared(memory: WebAssembly.Memory): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// Compiled once per memory kind; null when this engine lacks SIMD (or shared memories), and the JS kernels run.
function wasmModule(shared: boolean): WebAssembly.Module | null {
  if (!compiled.has(shared)) {
    let module: WebAssembly.Module | null = null;
    try {
      const bytes = decodeBase64(shared ? SHARED_MEMORY_KERNELS : PLAIN_MEMORY_KERNELS);
      if (typeof WebAssembly !== 'undefined' && WebAssembly.validate(bytes)) module = new WebAssembly.Module(bytes);
    } catch {
      module = null;
    }
    compiled.set(shared, module);
  }
  return compiled.get(shared)!;
}

/** Whether the WebAssembly SIMD kernels can run here over a memory of this kind. */
export function wasmKernelsAvailable(shared = false): boolean {
  return wasmModule(shared) !== null;
}

/** Kernels over `memory`: WebAssembly SIMD when available (and not refused by `choice`), else plain JS. */
export function vectorKernels(memory: WebAssembly.Memory, choice: KernelChoice = 'auto'): VectorKernels {
  if (choice !== 'js') {
    const module = wasmModule(isShared(memory));
    if (module) {
      const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as {
        dot_i8(codes: number, query: number, stride: number, rows: number, scales: number, out: number): number;
        dot_f32(rows: number, query: number, stride: number, count: number, out: number): number;
        hamming(codes: number, query: number, stride: number, rows: number, out: number): number;
        scan_floor(ptr: number, bytes: number): number;
      };
      return {
        kind: 'wasm-simd',
        dotInt8: exports.dot_i8,
        dotF32: exports.dot_f32,
        hamming: exports.hamming,
        scanFloor: exports.scan_floor,
      };
    }
    if (choice === 'wasm-simd') throw new Error('WebAssembly SIMD is not available in this environment.');
  }
  return jsKernels(memory);
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, b) => {
  let count = 0;
  for (let v = b; v; v >>= 1) count += v & 1;
  return count;
});

function jsKernels(memory: WebAssembly.Memory): VectorKernels {
  return {
    kind: 'js',
    dotInt8(codes, query, stride, rows, scales, out) {
      const bytes = new Int8Array(memory.buffer);
      const q = new Int16Array(memory.buffer, query, stride);
      const rowScales = new Float32Array(memory.buffer, scales, rows);
      const result = new Float32Array(memory.buffer, out, rows);
      let max = -Infinity;
      for (let r = 0, o = codes; r < rows; r++) {
        let s = 0;
        for (let j = 0; j < stride; j++, o++) s += bytes[o]! * q[j]!;
        // the sum to float32, then a float32 product (exact in float64, rounded once): what WebAssembly computes
        const score = Math.fround(rowScales[r]! * Math.fround(s));
        result[r] = score;
        if (score > max) max = score;
      }
      return max;
    },
    dotF32(rows, query, stride, count, out) {
      const values = new Float32Array(memory.buffer);
      const result = new Float32Array(memory.buffer, out, count);
      const width = stride >> 2;
      const q = query >> 2;
      const f = Math.fround;
      const sums = new Float32Array(16);
      let max = -Infinity;
      for (let r = 0, o = rows >> 2; r < count; r++, o += width) {
        sums.fill(0);
        // a float32 product of float32 values is exact in float64, so fround gives WebAssembly's rounding
        for (let j = 0; j < width; j++) sums[j & 15] = sums[j & 15]! + f(values[o + j]! * values[q + j]!);
        const lane = (l: number) => f(f(sums[l]! + sums[l + 4]!) + f(sums[l + 8]! + sums[l + 12]!));
        const score = f(f(lane(0) + lane(1)) + f(lane(2) + lane(3)));
        result[r] = score;
        if (score > max) max = score;
      }
      return max;
    },
    hamming(codes, query, stride, rows, out) {
      const bytes = new Uint8Array(memory.buffer);
      const result = new Int32Array(memory.buffer, out, rows);
      let min = 0x7fffffff;
      for (let r = 0, o = codes; r < rows; r++) {
        let d = 0;
        for (let j = 0; j < stride; j++, o++) d += POPCOUNT[bytes[o]! ^ bytes[query + j]!]!;
        result[r] = d;
        if (d < min) min = d;
      }
      return min;
    },
    scanFloor(ptr, bytes) {
      const words = new Int32Array(memory.buffer, ptr, bytes >> 2);
      let x = 0;
      for (let i = 0; i < words.length; i++) x ^= words[i]!;
      return x;
    },
  };
}
