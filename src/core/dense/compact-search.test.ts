import { describe, expect, it } from 'vitest';
import { CompactVectors } from './compact-vectors.ts';
import { defaultRescoreFactor, searchCompact, searchCompactExact } from './compact-search.ts';
import { searchDense } from './dense-search.ts';
import { normalizeRow, randomRows, seededRandom } from '../../test-support/random-vectors.ts';
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

describe('searchCompact, certified exact', () => {
  // Rows crowded around a few directions: many near-ties, so the int8 order often differs from the exact one.
  function crowdedMatrix(rows: number, dims: number, seed: number): VectorMatrix {
    const random = seededRandom(seed);
    const centres = randomRows(random, 4, dims);
    const values = new Float32Array(rows * dims);
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < dims; j++) values[r * dims + j] = centres[(r % 4) * dims + j]! + random() * 0.02;
    }
    const matrix = new VectorMatrix({ model: testModel(dims), chunkRows: 256 });
    matrix.addBatch(Array.from({ length: rows }, (_, i) => `d${i}`), values);
    return matrix;
  }

  for (const kernels of ['wasm-simd', 'js'] as const) {
    it(`gives searchDense's hits and scores to the bit where int8 scores misorder rows (${kernels} kernels)`, async () => {
      const matrix = crowdedMatrix(5000, 64, 3);
      const compact = CompactVectors.fromMatrix(matrix, { kernels });
      const random = seededRandom(9);
      let approximateMissed = 0;
      for (let i = 0; i < 30; i++) {
        // queries near the crowds, and random ones
        const vector = i % 2 ? randomRows(random, 1, 64) : matrix.rows.row(i * 37).map((v) => v + random() * 0.01);
        const query = { vector, model: matrix.model };
        const exact = searchDense(matrix, query, 10);
        const result = await searchCompactExact(compact, query, 10);
        expect(result.hits).toEqual(exact);
        expect(await searchCompact(compact, query, 10, { exact: true })).toEqual(exact);
        // rescoring only the 10 best by int8 score misses some of the exact top-10 here
        const approximate = await searchCompact(compact, query, 10, { rescoreFactor: 1 });
        if (JSON.stringify(approximate) !== JSON.stringify(exact)) approximateMissed++;
      }
      expect(approximateMissed).toBeGreaterThan(0);
    });
  }

  it('rescores few rows when the bounds rule most out (random rows, 384 dimensions)', async () => {
    const matrix20k = matrixOf(20_000, 384, 17);
    const compact = CompactVectors.fromMatrix(matrix20k);
    const random = seededRandom(5);
    for (let i = 0; i < 10; i++) {
      const query = { vector: randomRows(random, 1, 384), model: compact.model };
      const result = await searchCompactExact(compact, query, 10);
      expect(result.hits).toEqual(searchDense(matrix20k, query, 10));
      // one batch of rows, best bound first: no more than the approximate search's 4 × k
      expect(result.rescored).toBeGreaterThanOrEqual(10);
      expect(result.rescored).toBeLessThanOrEqual(40);
    }
  });

  it('orders exact ties by row, as searchDense does, within a row range', async () => {
    // every row repeated three times: ties at every score, including the k-th
    const base = randomRows(seededRandom(11), 400, 32);
    const values = new Float32Array(1200 * 32);
    for (let r = 0; r < 1200; r++) values.set(base.subarray((r % 400) * 32, (r % 400 + 1) * 32), r * 32);
    const matrix = new VectorMatrix({ model: testModel(32), chunkRows: 128 });
    matrix.addBatch(Array.from({ length: 1200 }, (_, i) => `d${i}`), values);
    const compact = CompactVectors.fromMatrix(matrix);
    for (let i = 0; i < 10; i++) {
      const query = { vector: randomRows(seededRandom(200 + i), 1, 32), model: matrix.model };
      for (const k of [1, 4, 10]) {
        expect(await searchCompact(compact, query, k, { exact: true, rescoreFactor: 1 })).toEqual(searchDense(matrix, query, k));
        expect(await searchCompact(compact, query, k, { exact: true, start: 250, end: 1100 })).toEqual(searchDense(matrix, query, k, { start: 250, end: 1100 }));
      }
    }
  });

  it('holds for rows with one large component and tiny others, and for zero rows', async () => {
    const dims = 48;
    const random = seededRandom(21);
    const values = randomRows(random, 2000, dims);
    for (let r = 0; r < 2000; r++) {
      if (r % 3 === 0) values[r * dims + (r % dims)] = 40; // most of the row's length in one component
      if (r % 97 === 0) values.fill(0, r * dims, (r + 1) * dims);
      if (r % 5 === 0) for (let j = 0; j < dims; j++) values[r * dims + j]! *= j % 2 ? 1e-6 : 1;
    }
    const matrix = new VectorMatrix({ model: testModel(dims), chunkRows: 100 });
    matrix.addBatch(Array.from({ length: 2000 }, (_, i) => `d${i}`), values);
    const compact = CompactVectors.fromMatrix(matrix);
    for (let i = 0; i < 20; i++) {
      const query = { vector: i % 4 ? randomRows(random, 1, dims) : matrix.rows.row(i * 3), model: matrix.model };
      expect(await searchCompact(compact, query, 10, { exact: true, rescoreFactor: 1 })).toEqual(searchDense(matrix, query, 10));
    }
  });

  it('keeps rows whose int8 score is lower by nearly twice the bound but whose exact score is higher', async () => {
    // Every row's largest component is its first (so every scale is the same) and every other component sits
    // 0.49 of a step from its code: up for the 10 rows that truly score best, down for 1,000 decoys whose codes
    // sum higher. The int8 scores rank every decoy first; the exact scores rank the 10 first. A bound less than
    // the worst rounding error would rule them out.
    const dims = 64;
    const values = new Float32Array(1010 * dims);
    for (let r = 0; r < 1010; r++) {
      const row = values.subarray(r * dims, (r + 1) * dims);
      row[0] = 1;
      for (let j = 1; j < dims; j++) row[j] = (r < 1000 ? (j <= 60 ? 5.51 : 4.51) : 5.49) / 127;
      row[1 + (r % 63)]! += 1e-6 * (r % 7); // no two rows alike
      normalizeRow(values, r * dims, dims);
    }
    const matrix = new VectorMatrix({ model: testModel(dims), chunkRows: 256 });
    matrix.addBatch(Array.from({ length: 1010 }, (_, i) => `d${i}`), values);
    const compact = CompactVectors.fromMatrix(matrix);
    const query = { vector: new Float32Array(dims).fill(1), model: matrix.model };
    const exact = searchDense(matrix, query, 10);
    expect(exact.map((h) => h.row).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => 1000 + i));
    expect(await searchCompact(compact, query, 10, { exact: true })).toEqual(exact);
    expect((await searchCompact(compact, query, 10)).every((h) => h.row < 1000)).toBe(true);
  });

  it('refuses the binary first pass and approximate scores', async () => {
    const compact = CompactVectors.fromMatrix(matrixOf(100, 16));
    const query = { vector: randomRows(seededRandom(1), 1, 16), model: compact.model };
    await expect(searchCompact(compact, query, 5, { exact: true, firstPass: 'binary' })).rejects.toThrow(/int8 first pass/);
    await expect(searchCompact(compact, query, 5, { exact: true, approximate: true })).rejects.toThrow(/int8 first pass/);
    expect(await searchCompactExact(compact, query, 0)).toEqual({ hits: [], rescored: 0 });
    // a zero query scores every row 0: the first rows, as searchDense gives them
    const zero = { vector: new Float32Array(16), model: compact.model };
    expect(await searchCompact(compact, zero, 3, { exact: true })).toEqual(searchDense(matrixOf(100, 16), zero, 3));
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
