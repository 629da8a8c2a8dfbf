import { describe, expect, it } from 'vitest';
import { seededRandom } from '../test-fixtures.ts';
import { vectorKernels, wasmKernelsAvailable } from './vector-kernels.ts';

// Random int8 rows, an int16 query and bit rows in one memory; odd row counts and several strides.
function fill(memory: WebAssembly.Memory, stride: number, rows: number) {
  const random = seededRandom(stride * 31 + rows);
  const codes = 4096;
  const query = codes + rows * stride;
  const out = query + stride * 2 + 64;
  new Int8Array(memory.buffer, codes, rows * stride).forEach((_, i, a) => (a[i] = Math.round(random() * 254)));
  new Int16Array(memory.buffer, query, stride).forEach((_, i, a) => (a[i] = Math.round(random() * 65534)));
  return { codes, query, out };
}

describe('vector kernels', () => {
  it('compile here: WebAssembly SIMD over plain and shared memory', () => {
    expect(wasmKernelsAvailable(false)).toBe(true);
    expect(wasmKernelsAvailable(true)).toBe(true);
  });

  for (const shared of [false, true]) {
    it(`give identical int8 dot products, Hamming distances and floor sums in WebAssembly and JS (${shared ? 'shared' : 'plain'} memory)`, () => {
      const memory = shared ? new WebAssembly.Memory({ initial: 4, maximum: 4, shared: true }) : new WebAssembly.Memory({ initial: 4 });
      const wasm = vectorKernels(memory, 'wasm-simd');
      const js = vectorKernels(memory, 'js');
      expect(wasm.kind).toBe('wasm-simd');
      expect(js.kind).toBe('js');
      for (const [stride, rows] of [[16, 1], [48, 7], [384, 33], [1024, 5]] as const) {
        const { codes, query, out } = fill(memory, stride, rows);
        const results = () => Array.from(new Int32Array(memory.buffer, out, rows));
        wasm.dotInt8(codes, query, stride, rows, out);
        const fromWasm = results();
        js.dotInt8(codes, query, stride, rows, out);
        expect(results()).toEqual(fromWasm);
        // the extreme values: every product at its largest magnitude
        expect(fromWasm.some((v) => v !== 0)).toBe(true);
        wasm.hamming(codes, query, stride, rows, out);
        const hamming = results();
        js.hamming(codes, query, stride, rows, out);
        expect(results()).toEqual(hamming);
        expect(wasm.scanFloor(codes, 64 * Math.floor((rows * stride) / 64))).toBe(js.scanFloor(codes, 64 * Math.floor((rows * stride) / 64)));
      }
    });
  }

  it('computes the dot product and Hamming distance by their definitions', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const kernels = vectorKernels(memory, 'wasm-simd');
    const codes = new Int8Array(memory.buffer, 0, 32);
    codes.set([127, -128, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    codes.set([1, 2], 16);
    new Int16Array(memory.buffer, 64, 16).set([32767, 32767, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
    kernels.dotInt8(0, 64, 16, 2, 128);
    expect(Array.from(new Int32Array(memory.buffer, 128, 2))).toEqual([127 * 32767 - 128 * 32767 - 6 + 5, 32767 + 2 * 32767]);
    new Uint8Array(memory.buffer, 256, 16).set([0xff, 0x0f]);
    kernels.hamming(0, 256, 16, 1, 128);
    // row 0 bytes: 0x7f, 0x80, 0x03, 0…0, 0x01 against 0xff, 0x0f
    expect(new Int32Array(memory.buffer, 128, 1)[0]).toBe(1 + 5 + 2 + 1);
  });
});
