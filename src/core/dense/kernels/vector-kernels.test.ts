import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test-support/random-vectors.ts';
import { vectorKernels, wasmKernelsAvailable } from './vector-kernels.ts';

// Random int8 rows, an int16 query, row scales; odd row counts and several strides.
function fill(memory: WebAssembly.Memory, stride: number, rows: number) {
  const random = seededRandom(stride * 31 + rows);
  const codes = 4096;
  const query = codes + rows * stride;
  const scales = query + stride * 2;
  const out = scales + rows * 4;
  new Int8Array(memory.buffer, codes, rows * stride).forEach((_, i, a) => (a[i] = Math.round(random() * 255)));
  new Int16Array(memory.buffer, query, stride).forEach((_, i, a) => (a[i] = Math.round(random() * 4000)));
  new Float32Array(memory.buffer, scales, rows).forEach((_, i, a) => (a[i] = (random() + 0.5) / 127));
  return { codes, query, scales, out };
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
      for (const [stride, rows] of [[64, 1], [128, 7], [384, 33], [1024, 5]] as const) {
        const { codes, query, scales, out } = fill(memory, stride, rows);
        const scores = () => Array.from(new Float32Array(memory.buffer, out, rows));
        const results = () => Array.from(new Int32Array(memory.buffer, out, rows));
        const maxWasm = wasm.dotInt8(codes, query, stride, rows, scales, out);
        const fromWasm = scores();
        const maxJs = js.dotInt8(codes, query, stride, rows, scales, out);
        expect(scores()).toEqual(fromWasm);
        expect(maxJs).toBe(maxWasm);
        expect(maxWasm).toBe(Math.max(...fromWasm));
        expect(fromWasm.some((v) => v !== 0)).toBe(true);
        const minWasm = wasm.hamming(codes, query, stride, rows, out);
        const hamming = results();
        expect(js.hamming(codes, query, stride, rows, out)).toBe(minWasm);
        expect(results()).toEqual(hamming);
        expect(minWasm).toBe(Math.min(...hamming));
        expect(wasm.scanFloor(codes, 64 * Math.floor((rows * stride) / 64))).toBe(js.scanFloor(codes, 64 * Math.floor((rows * stride) / 64)));
      }
    });
  }

  it('computes the dot product and Hamming distance by their definitions', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const kernels = vectorKernels(memory, 'wasm-simd');
    const codes = new Int8Array(memory.buffer, 0, 128);
    codes.set([127, -127, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    codes[63] = 4;
    codes.set([1, 2], 64);
    const query = new Int16Array(memory.buffer, 512, 64);
    query.set([127, 127, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
    query[63] = -3;
    new Float32Array(memory.buffer, 1024, 2).set([0.5, 2]);
    new Uint8Array(memory.buffer, 640, 16).fill(0);
    expect(kernels.dotInt8(0, 512, 64, 2, 1024, 2048)).toBe(2 * (127 + 2 * 127));
    expect(Array.from(new Float32Array(memory.buffer, 2048, 2))).toEqual([0.5 * (127 * 127 - 127 * 127 - 6 + 5 - 12), 2 * (127 + 2 * 127)]);
    new Uint8Array(memory.buffer, 256, 16).set([0xff, 0x0f]);
    // row 0 bytes: 0x7f, 0x81, 0x03, 0…0, 0x01 against 0xff, 0x0f
    expect(kernels.hamming(0, 256, 16, 1, 128)).toBe(1 + 4 + 2 + 1);
    expect(new Int32Array(memory.buffer, 128, 1)[0]).toBe(1 + 4 + 2 + 1);
  });
});
