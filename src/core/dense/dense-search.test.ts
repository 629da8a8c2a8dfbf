import { describe, expect, it } from 'vitest';
import { searchDense } from './dense-search.ts';
import { mergeTopK, type DenseHit } from './top-k.ts';
import { VectorMatrix } from './vector-matrix.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { testModel } from './test-fixtures.ts';

function buildMatrix(n: number, dims: number, chunkRows: number, seed: number): VectorMatrix {
  const m = new VectorMatrix({ model: testModel(dims), chunkRows });
  const values = randomRows(seededRandom(seed), n, dims);
  m.addBatch(Array.from({ length: n }, (_, i) => `d${i}`), values);
  return m;
}

// Independent reference: naive float64 dot with the normalised query against every stored row, full sort.
function bruteForce(m: VectorMatrix, query: Float32Array, k: number): DenseHit[] {
  const norm = Math.hypot(...query);
  const hits: DenseHit[] = [];
  for (let row = 0; row < m.size; row++) {
    const v = m.rows.row(row);
    let s = 0;
    for (let j = 0; j < v.length; j++) s += (query[j] / norm) * v[j];
    hits.push({ id: m.id(row), score: s, row });
  }
  return hits.sort((a, b) => b.score - a.score || a.row - b.row).slice(0, k);
}

function expectSameHits(actual: DenseHit[], expected: DenseHit[]) {
  expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
  actual.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i].score, 12));
}

describe('searchDense', () => {
  it('equals a brute-force sort for several sizes, widths, chunk sizes and k', () => {
    let seed = 10;
    for (const dims of [8, 5, 384]) {
      for (const [n, chunkRows] of [[1, 4096], [7, 3], [100, 16], [1000, 64], [1000, 4096]]) {
        const m = buildMatrix(n, dims, chunkRows, seed++);
        const query = randomRows(seededRandom(seed++), 1, dims);
        for (const k of [1, 3, 10, n + 5]) {
          const hits = searchDense(m, { vector: query, model: m.model }, k);
          expect(hits).toHaveLength(Math.min(k, n));
          expectSameHits(hits, bruteForce(m, query, k));
        }
      }
    }
  });

  it('breaks ties by row, across chunk boundaries', () => {
    const dims = 4;
    const m = new VectorMatrix({ model: testModel(dims), chunkRows: 3 });
    const random = seededRandom(3);
    const target = [0.5, -0.25, 1, 0.75];
    // The target vector at rows 2, 3, 7, 9 and 10 (chunks 0, 1, 2, 3); random vectors elsewhere.
    const tied = new Set([2, 3, 7, 9, 10]);
    for (let row = 0; row < 12; row++) m.add(`d${row}`, tied.has(row) ? target : Array.from({ length: dims }, random));
    const hits = searchDense(m, { vector: Float32Array.from(target), model: m.model }, 3);
    expect(hits.map((h) => h.row)).toEqual([2, 3, 7]);
    expect(hits[0].score).toBe(hits[2].score);
    expect(hits[0].score).toBeCloseTo(1, 6);
    expectSameHits(searchDense(m, { vector: Float32Array.from(target), model: m.model }, 12), bruteForce(m, Float32Array.from(target), 12));
  });

  it('does not depend on the query length (cosine)', () => {
    const m = buildMatrix(50, 8, 7, 99);
    const q = randomRows(seededRandom(100), 1, 8);
    const scaled = q.map((x) => x * 10);
    const a = searchDense(m, { vector: q, model: m.model }, 5);
    const b = searchDense(m, { vector: scaled, model: m.model }, 5);
    expect(b.map((h) => h.id)).toEqual(a.map((h) => h.id));
    b.forEach((h, i) => expect(h.score).toBeCloseTo(a[i].score, 6));
    expect(a[0].score).toBeLessThanOrEqual(1 + 1e-6);
  });

  it('range scans merged with mergeTopK equal the full scan', () => {
    const m = buildMatrix(1000, 16, 64, 5);
    const query = randomRows(seededRandom(6), 1, 16);
    const full = searchDense(m, { vector: query, model: m.model }, 10);
    for (const cuts of [[0, 500, 1000], [0, 63, 64, 65, 700, 1000], [0, 1, 999, 1000], [0, 1000, 1000]]) {
      const parts = cuts.slice(1).map((end, i) => searchDense(m, { vector: query, model: m.model }, 10, { start: cuts[i], end }));
      expect(mergeTopK(parts, 10)).toEqual(full);
    }
    const middle = searchDense(m, { vector: query, model: m.model }, 1000, { start: 100, end: 200 });
    expect(middle).toHaveLength(100);
    expect(middle.every((h) => h.row >= 100 && h.row < 200)).toBe(true);
  });

  it('refuses a query from another model, naming both models', () => {
    const m = buildMatrix(3, 4, 4, 1);
    const other = testModel(4, { modelId: 'Xenova/bge-small-en-v1.5', pooling: 'cls' });
    const run = () => searchDense(m, { vector: new Float32Array(4).fill(1), model: other }, 1);
    expect(run).toThrow(/Embedding model mismatch/);
    expect(run).toThrow(/test-model \(fp32, mean pooling/);
    expect(run).toThrow(/Xenova\/bge-small-en-v1\.5 \(fp32, cls pooling/);
    const prefixed = testModel(4, { prefixes: { query: 'query: ', passage: 'passage: ' } });
    expect(() => searchDense(m, { vector: new Float32Array(4).fill(1), model: prefixed }, 1)).toThrow(/query prefix "query: "/);
  });

  it('rejects a wrong query width and bad ranges; k = 0 gives nothing', () => {
    const m = buildMatrix(3, 4, 4, 1);
    expect(() => searchDense(m, { vector: new Float32Array(5), model: m.model }, 1)).toThrow(/5 dimensions; the matrix holds 4/);
    expect(() => searchDense(m, { vector: new Float32Array(4), model: m.model }, 1, { start: 2, end: 1 })).toThrow(/row range/);
    expect(() => searchDense(m, { vector: new Float32Array(4), model: m.model }, 1, { end: 4 })).toThrow(/row range/);
    expect(searchDense(m, { vector: new Float32Array(4).fill(1), model: m.model }, 0)).toEqual([]);
  });
});
