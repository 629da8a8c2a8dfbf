import { describe, expect, it } from 'vitest';
import { CompactVectors } from './compact-vectors.ts';
import { defaultRescoreFactor, searchCompact } from './compact-search.ts';
import { searchDense } from './dense-search.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { testModel } from './test-fixtures.ts';
import { VectorMatrix } from './vector-matrix.ts';

function matrixOf(rows: number, dims: number, seed = 1): VectorMatrix {
  const matrix = new VectorMatrix({ model: testModel(dims), chunkRows: 64 });
  matrix.addBatch(Array.from({ length: rows }, (_, i) => `d${i}`), randomRows(seededRandom(seed), rows, dims));
  return matrix;
}

function recall(found: { row: number }[], exact: { row: number }[]): number {
  const truth = new Set(exact.map((h) => h.row));
  return found.filter((h) => truth.has(h.row)).length / exact.length;
}

describe('CompactVectors', () => {
  it('stores int8 codes with one scale per row, within half a step of every value', () => {
    const matrix = matrixOf(100, 40);
    const compact = CompactVectors.fromMatrix(matrix);
    for (let row = 0; row < 100; row++) {
      const exact = matrix.rows.row(row);
      const back = compact.dequantized(row);
      const step = Math.max(...exact.map(Math.abs)) / 127;
      for (let j = 0; j < 40; j++) expect(Math.abs(back[j]! - exact[j]!)).toBeLessThanOrEqual(step / 2 + 1e-7);
    }
    expect(compact.rowOf('d42')).toBe(42);
    expect(compact.id(7)).toBe('d7');
  });

  it('is about a quarter of the float32 size at 384 dimensions', () => {
    const matrix = matrixOf(4000, 384);
    const compact = CompactVectors.fromMatrix(matrix);
    expect(compact.byteLength / (4000 * 384 * 4)).toBeLessThan(0.33);
  });

  it('refuses duplicate ids and rows outside its size', () => {
    expect(() => CompactVectors.allocate(testModel(4), ['a', 'a'])).toThrow(/duplicate/);
    const compact = CompactVectors.allocate(testModel(4), ['a']);
    expect(() => compact.setRows(0, new Float32Array(8))).toThrow(/not whole rows/);
  });
});

describe('searchCompact', () => {
  const matrix = matrixOf(3000, 64, 7);
  const queries = Array.from({ length: 20 }, (_, i) => ({ vector: randomRows(seededRandom(100 + i), 1, 64), model: matrix.model }));

  for (const kernels of ['wasm-simd', 'js'] as const) {
    it(`returns exact float32 scores with recall@10 ≥ 0.99 against searchDense (int8, ${kernels} kernels)`, async () => {
      const compact = CompactVectors.fromMatrix(matrix, { kernels });
      let total = 0;
      for (const query of queries) {
        const exact = searchDense(matrix, query, 10);
        const hits = await searchCompact(compact, query, 10);
        total += recall(hits, exact);
        // every returned hit carries the exact score searchDense gives that row
        for (const hit of hits) {
          const same = searchDense(matrix, query, 3000).find((h) => h.row === hit.row)!;
          expect(hit.score).toBe(same.score);
          expect(hit.id).toBe(same.id);
        }
      }
      expect(total / queries.length).toBeGreaterThanOrEqual(0.99);
    });
  }

  it('gives the same hits with the WebAssembly and the JS kernels, in both first passes', async () => {
    const wasm = CompactVectors.fromMatrix(matrix, { kernels: 'wasm-simd' });
    const js = CompactVectors.fromMatrix(matrix, { kernels: 'js' });
    for (const firstPass of ['int8', 'binary'] as const) {
      for (const query of queries.slice(0, 5)) {
        expect(await searchCompact(wasm, query, 10, { firstPass, approximate: true })).toEqual(await searchCompact(js, query, 10, { firstPass, approximate: true }));
        expect(await searchCompact(wasm, query, 10, { firstPass })).toEqual(await searchCompact(js, query, 10, { firstPass }));
      }
    }
  });

  it('finds most of the exact top-10 with a binary first pass', async () => {
    const compact = CompactVectors.fromMatrix(matrix);
    let total = 0;
    for (const query of queries) total += recall(await searchCompact(compact, query, 10, { firstPass: 'binary' }), searchDense(matrix, query, 10));
    expect(total / queries.length).toBeGreaterThanOrEqual(0.8);
  });

  it('rescoring with few candidates loses rows a larger candidate set keeps', async () => {
    const compact = CompactVectors.fromMatrix(matrix, { floatRows: (rows) => rows.map((r) => matrix.rows.row(r)) });
    let narrow = 0;
    let wide = 0;
    for (const query of queries) {
      const exact = searchDense(matrix, query, 10);
      narrow += recall(await searchCompact(compact, query, 10, { firstPass: 'binary', binaryFactor: 1, rescoreFactor: 1 }), exact);
      wide += recall(await searchCompact(compact, query, 10, { firstPass: 'binary', binaryFactor: 100 }), exact);
    }
    expect(narrow).toBeLessThan(wide);
  });

  it('scans a row range, and refuses another model, a wrong width or a bad range', async () => {
    const compact = CompactVectors.fromMatrix(matrix);
    const hits = await searchCompact(compact, queries[0]!, 5, { start: 100, end: 200 });
    expect(hits.every((h) => h.row >= 100 && h.row < 200)).toBe(true);
    expect(hits.map((h) => h.row)).toEqual(searchDense(matrix, queries[0]!, 5, { start: 100, end: 200 }).map((h) => h.row));
    await expect(searchCompact(compact, { ...queries[0]!, model: testModel(64, { modelId: 'other' }) }, 5)).rejects.toThrow(/other|model/);
    await expect(searchCompact(compact, { vector: new Float32Array(3), model: matrix.model }, 5)).rejects.toThrow(/dimensions/);
    await expect(searchCompact(compact, queries[0]!, 5, { start: 10, end: 5 })).rejects.toThrow(/row range/);
    expect(await searchCompact(compact, queries[0]!, 0)).toEqual([]);
  });
});

describe('defaultRescoreFactor', () => {
  it('keeps k × 4 up to a million rows and grows with the set after that, never shrinking', () => {
    expect([1, 10_000, 1_000_000].map(defaultRescoreFactor)).toEqual([4, 4, 4]);
    expect([1_000_001, 3_000_000, 8_800_000].map(defaultRescoreFactor)).toEqual([5, 12, 36]);
    let previous = 0;
    for (let rows = 0; rows <= 10_000_000; rows += 123_457) {
      const factor = defaultRescoreFactor(rows);
      expect(factor).toBeGreaterThanOrEqual(previous);
      previous = factor;
    }
  });
});
