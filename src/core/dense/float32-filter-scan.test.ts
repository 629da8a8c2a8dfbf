import { describe, expect, it } from 'vitest';
import { seededRandom, unitRows } from '../../test-support/random-vectors.ts';
import { normalizedCopy, scoreRow, searchDense } from './dense-search.ts';
import { float32FilterAvailable, float32ScoreBound } from './float32-filter-scan.ts';
import { vectorKernels } from './kernels/vector-kernels.ts';
import { testModel } from './test-fixtures.ts';
import { VectorMatrix } from './vector-matrix.ts';

// Rows in the kernel's layout (stride: whole 16-float steps, zero padded), query first.
function layout(memory: WebAssembly.Memory, dims: number, rows: Float32Array, query: ArrayLike<number>) {
  const stride = Math.ceil(dims / 16) * 64;
  const count = rows.length / dims;
  const values = new Float32Array(memory.buffer);
  values.fill(0, 0, ((count + 1) * stride) >> 2);
  values.set(query, 0);
  for (let r = 0; r < count; r++) values.set(rows.subarray(r * dims, (r + 1) * dims), ((r + 1) * stride) >> 2);
  return { stride, count, rowsAt: stride, outAt: (count + 1) * stride };
}

// Unit rows that stress float32 sums: uniform, a few huge components with many tiny ones, and near-cancelling pairs.
function stressRows(seed: number, count: number, dims: number): Float32Array {
  const random = seededRandom(seed);
  const rows = unitRows(random, count, dims);
  for (let r = 0; r < count; r += 3) {
    for (let j = 0; j < dims; j++) rows[r * dims + j] = j % 97 === 0 ? 1 + random() : random() * 1e-4;
  }
  for (let r = 1; r < count; r += 3) {
    for (let j = 0; j < dims; j++) rows[r * dims + j] = (j % 2 ? -1 : 1) * (0.7 + random() * 1e-3);
  }
  for (let r = 0; r < count; r++) {
    let sum = 0;
    for (let j = 0; j < dims; j++) sum += rows[r * dims + j]! ** 2;
    for (let j = 0; j < dims; j++) rows[r * dims + j]! /= Math.sqrt(sum);
  }
  return rows;
}

describe('float32 dot kernel', () => {
  it('runs as WebAssembly SIMD here', () => {
    expect(float32FilterAvailable()).toBe(true);
  });

  for (const shared of [false, true]) {
    it(`gives identical float32 scores in WebAssembly and JS (${shared ? 'shared' : 'plain'} memory)`, () => {
      const memory = shared ? new WebAssembly.Memory({ initial: 8, maximum: 8, shared: true }) : new WebAssembly.Memory({ initial: 8 });
      const wasm = vectorKernels(memory, 'wasm-simd');
      const js = vectorKernels(memory, 'js');
      for (const [dims, count] of [[16, 1], [5, 7], [384, 33], [768, 5], [100, 12]] as const) {
        const rows = stressRows(dims * 7 + count, count, dims);
        const { stride, rowsAt, outAt } = layout(memory, dims, rows, unitRows(seededRandom(dims), 1, dims));
        const scores = () => Array.from(new Float32Array(memory.buffer, outAt, count));
        const maxWasm = wasm.dotF32(rowsAt, 0, stride, count, outAt);
        const fromWasm = scores();
        new Float32Array(memory.buffer, outAt, count).fill(0);
        const maxJs = js.dotF32(rowsAt, 0, stride, count, outAt);
        expect(scores()).toEqual(fromWasm);
        expect(maxJs).toBe(maxWasm);
        expect(maxWasm).toBe(Math.max(...fromWasm));
        expect(fromWasm.every((v) => v !== 0 && Number.isFinite(v))).toBe(true);
      }
    });
  }

  it('sums lanes in its stated order: 16 running sums, then pairwise', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const kernels = vectorKernels(memory, 'wasm-simd');
    const values = new Float32Array(memory.buffer);
    // query all ones; the row puts 2^24 in lane 0 and 1 in lanes 4 and 8: (2^24 + 1) + 1 would round back to 2^24
    // twice in a sequential float32 sum, but lanes 0 and 4 meet first and lose one 1, then lane 8 is added to
    // lane 12 (0) and the pair sums 2^24 + 1 → 2^24 once more: the kernel gives 2^24, a float64 sum 2^24 + 2.
    values.fill(1, 0, 16);
    values.set([2 ** 24, 0, 0, 0, 1, 0, 0, 0, 1], 16);
    expect(kernels.dotF32(64, 0, 64, 1, 256)).toBe(2 ** 24);
    // and a plain case: 1·1 + 2·2 + … + 16·16
    values.set(Array.from({ length: 16 }, (_, j) => j + 1), 0);
    values.set(Array.from({ length: 16 }, (_, j) => j + 1), 16);
    expect(kernels.dotF32(64, 0, 64, 1, 256)).toBe(1496);
  });

  it('stays within float32ScoreBound of the float64 score of the same row and query', () => {
    const memory = new WebAssembly.Memory({ initial: 64 });
    const kernels = vectorKernels(memory, 'wasm-simd');
    for (const dims of [8, 5, 100, 384, 1024]) {
      const rows = stressRows(dims, 60, dims);
      const q = normalizedCopy(stressRows(dims + 1, 3, dims).subarray(dims, 2 * dims));
      const { stride, rowsAt, outAt, count } = layout(memory, dims, rows, q);
      kernels.dotF32(rowsAt, 0, stride, count, outAt);
      const scores = new Float32Array(memory.buffer, outAt, count);
      let worst = 0;
      for (let r = 0; r < count; r++) worst = Math.max(worst, Math.abs(scores[r]! - scoreRow(q, rows.subarray(r * dims, (r + 1) * dims))));
      expect(worst).toBeLessThanOrEqual(float32ScoreBound(dims));
      expect(worst).toBeGreaterThan(0); // the scores really are float32 sums, not the float64 ones
    }
  });
});

describe('searchDense with the float32 filter', () => {
  function matrixOf(rows: Float32Array, dims: number, chunkRows: number): VectorMatrix {
    const m = new VectorMatrix({ model: testModel(dims), chunkRows });
    m.addBatch(Array.from({ length: rows.length / dims }, (_, i) => `d${i}`), rows);
    return m;
  }

  it('returns exactly the plain scan’s hits and scores, also among near-ties within the float32 error', () => {
    let seed = 1;
    for (const dims of [8, 5, 100, 384]) {
      for (const [n, chunkRows] of [[1, 4096], [7, 3], [100, 16], [1000, 64], [2000, 4096]] as const) {
        const random = seededRandom(seed++);
        const rows = stressRows(seed++, n, dims);
        // a third of the rows: copies of row 0 nudged by less than the float32 error, and exact copies (ties)
        for (let r = 3; r < n; r += 3) {
          for (let j = 0; j < dims; j++) rows[r * dims + j] = r % 2 ? rows[j]! : rows[j]! * (1 + random() * 1e-7);
        }
        const m = matrixOf(rows, dims, chunkRows);
        const queries = [rows.slice(0, dims), unitRows(random, 1, dims), stressRows(seed++, 2, dims).slice(dims)];
        for (const vector of queries) {
          for (const k of [1, 3, 10, n + 5]) {
            const query = { vector, model: m.model };
            const plain = searchDense(m, query, k, { kernels: 'js' });
            expect(searchDense(m, query, k, { kernels: 'wasm-simd' })).toEqual(plain);
            expect(searchDense(m, query, k)).toEqual(plain);
          }
          const range = { start: Math.floor(n / 3), end: Math.ceil((2 * n) / 3) };
          expect(searchDense(m, { vector, model: m.model }, 5, { ...range, kernels: 'wasm-simd' })).toEqual(
            searchDense(m, { vector, model: m.model }, 5, { ...range, kernels: 'js' }),
          );
        }
      }
    }
  });
});
