import { describe, expect, it } from 'vitest';
import { seededRandom, unitRows } from '../../test-support/random-vectors.ts';
import { storedSet } from '../../test-support/stored-vector-set.ts';
import { SCANNER_SLOTS } from './scanner-slots.ts';
import { searchDense } from './dense-search.ts';
import { FLOAT_BLOCK_ROWS, RowArena } from './row-arena.ts';
import { adoptVectorSet, shareableVectorSet, shareMismatch, vectorSetIdentity } from './shared-vector-set.ts';
import { loadVectorMatrix } from './stored-vectors.ts';
import { testModel } from './test-fixtures.ts';
import { VectorMatrix } from './vector-matrix.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`);

/** The same rows twice: in plain chunks, and copied into an arena. */
function bothForms(rows: Float32Array, dims: number, chunkRows: number, shared = false) {
  const n = rows.length / dims;
  const plain = new VectorMatrix({ model: testModel(dims), chunkRows });
  plain.addBatch(ids(n), rows);
  const arena = RowArena.allocate(dims, chunkRows, plain.rows.chunkCount, { shared })!;
  for (let c = 0; c < plain.rows.chunkCount; c++) arena.chunk(c).set(plain.rows.chunk(c));
  return { plain, inArena: VectorMatrix.fromArena({ model: plain.model }, ids(n), arena), arena };
}

/** Unit rows where a third are exact or nudged copies of row 0 (ties and near-ties within the float32 error). */
function nearTies(seed: number, n: number, dims: number): Float32Array {
  const random = seededRandom(seed);
  const rows = unitRows(random, n, dims);
  for (let r = 3; r < n; r += 3) for (let j = 0; j < dims; j++) rows[r * dims + j] = r % 2 ? rows[j]! : rows[j]! * (1 + random() * 1e-7);
  return rows;
}

describe('RowArena', () => {
  it('is made only where the kernel can read the rows in place, at its final size', () => {
    expect(RowArena.allocate(24, 16, 2)).toBeNull(); // not whole 16-float steps
    expect(RowArena.allocate(100, 16, 2)).toBeNull();
    expect(RowArena.allocate(32, 16, 0)).toBeNull();
    const arena = RowArena.allocate(384, 16, 3)!;
    expect(arena.memory.buffer.byteLength).toBeGreaterThanOrEqual(3 * 16 * 384 * 4);
    expect(arena.chunk(2).byteOffset).toBe(2 * 16 * 384 * 4);
    expect(arena.chunk(2).length).toBe(16 * 384);
    expect(() => arena.chunk(3)).toThrow(/chunk 3 out of range/);
    expect(() => arena.scanner(SCANNER_SLOTS)).toThrow(/scanner slot/);
    const shared = RowArena.allocate(32, 8, 1, { shared: true })!;
    expect(shared.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  for (const shared of [false, true]) {
    it(`searches exactly as the plain scan, near-ties and row ranges too (${shared ? 'shared' : 'plain'} memory)`, () => {
      let seed = 11;
      for (const dims of [16, 384, 768]) {
        for (const [n, chunkRows] of [[1, 4096], [7, 3], [200, 16], [1000, 64], [3000, 4096]] as const) {
          const { plain, inArena } = bothForms(nearTies(seed++, n, dims), dims, chunkRows, shared);
          expect(inArena.rows.arena).not.toBeNull();
          const random = seededRandom(seed++);
          for (const vector of [plain.rows.row(0).slice(), unitRows(random, 1, dims)]) {
            const query = { vector, model: plain.model };
            for (const k of [1, 10, n + 5]) {
              expect(searchDense(inArena, query, k)).toEqual(searchDense(plain, query, k, { kernels: 'js' }));
            }
            const range = { start: Math.floor(n / 3), end: Math.ceil((2 * n) / 3) };
            expect(searchDense(inArena, query, 5, range)).toEqual(searchDense(plain, query, 5, { ...range, kernels: 'js' }));
          }
        }
      }
    });
  }

  it('a search writes only its own scanner’s scratch area: the rows and the other slots are untouched', () => {
    const dims = 64;
    const { inArena, arena } = bothForms(unitRows(seededRandom(3), 500, dims), dims, 128, true);
    const before = new Uint8Array(arena.memory.buffer).slice();
    const adopted = VectorMatrix.adopt({ ...inArena.share(), scannerSlot: 2 });
    searchDense(adopted, { vector: unitRows(seededRandom(4), 1, dims), model: inArena.model }, 10);
    const after = new Uint8Array(arena.memory.buffer);
    const { queryAt } = arena.scanner(2);
    const slotEnd = queryAt + dims * 4 + FLOAT_BLOCK_ROWS * 4;
    let changedOutside = 0;
    let changedInside = 0;
    for (let i = 0; i < after.length; i++) {
      if (after[i] === before[i]) continue;
      if (i >= queryAt && i < slotEnd) changedInside++;
      else changedOutside++;
    }
    expect(changedOutside).toBe(0);
    expect(changedInside).toBeGreaterThan(0); // the query and the scores went where slot 2 says
  });

  it('another thread’s copy scans in place with its own slot, by copy without one, and a slot it cannot use is refused', async () => {
    const { store, set } = await storedSet(40, 'c', 32); // chunks of 16, 16, 8 rows
    const own = await loadVectorMatrix(store, set, { shared: true });
    expect(own.rows.arena).not.toBeNull();
    const identity = vectorSetIdentity(set, 'float32');
    const shareable = shareableVectorSet(identity, { matrix: own })!;
    expect('matrix' in shareable && shareable.matrix.arena).toBeTruthy();
    const withSlot = { ...shareable, matrix: { ...('matrix' in shareable ? shareable.matrix : ({} as never)), scannerSlot: 1 } };
    const inPlace = adoptVectorSet(withSlot, identity);
    const byCopy = adoptVectorSet(shareable, identity);
    if (!('matrix' in inPlace) || !('matrix' in byCopy)) throw new Error('expected matrices');
    expect(inPlace.matrix.rows.arena).not.toBeNull();
    expect(inPlace.matrix.rows.scannerSlot).toBe(1);
    expect(byCopy.matrix.rows.arena).toBeNull();
    const random = seededRandom(9);
    for (let q = 0; q < 6; q++) {
      const query = { vector: unitRows(random, 1, 32), model: own.model };
      const expected = searchDense(own, query, 7, { kernels: 'js' });
      expect(searchDense(inPlace.matrix, query, 7)).toEqual(expected);
      expect(searchDense(byCopy.matrix, query, 7)).toEqual(expected);
    }
    const badSlot = { ...withSlot, matrix: { ...withSlot.matrix, scannerSlot: SCANNER_SLOTS } };
    expect(shareMismatch(badSlot, identity)).toBe('it was handed over with a scanner slot it cannot use');
  });

  it('loads stored vectors into an arena in plain memory too, and rows appended past its last chunk leave it, still exact', async () => {
    const { store, set } = await storedSet(40, 'c', 32);
    const matrix = await loadVectorMatrix(store, set);
    expect(matrix.rows.arena).not.toBeNull();
    const stored = Array.from({ length: 40 }, (_, r) => Array.from(matrix.rows.row(r))).flat();
    const random = seededRandom(21);
    const extra = unitRows(random, 30, 32);
    matrix.addBatch(ids(8).map((id) => `x${id}`), extra.subarray(0, 8 * 32)); // fills the last chunk: still in the arena
    expect(matrix.rows.arena).not.toBeNull();
    const query = { vector: extra.slice(0, 32), model: matrix.model };
    expect(searchDense(matrix, query, 1)[0]!.id).toBe('xd0');
    matrix.addBatch(ids(30).slice(8).map((id) => `x${id}`), extra.subarray(8 * 32)); // a new chunk outside the arena
    expect(matrix.rows.arena).toBeNull();
    const plain = new VectorMatrix({ model: matrix.model, chunkRows: 16 });
    plain.addBatch([...ids(40), ...ids(30).map((id) => `x${id}`)], new Float32Array([...stored, ...extra]));
    for (let q = 0; q < 5; q++) {
      const probe = { vector: unitRows(random, 1, 32), model: matrix.model };
      expect(searchDense(matrix, probe, 9)).toEqual(searchDense(plain, probe, 9, { kernels: 'js' }));
    }
  });

  it('a stored chunk with more values than its ids is refused with its number, before anything is scanned', async () => {
    const { store, set } = await storedSet(40, 'c', 32);
    const chunk = (await store.getChunk('c', 'm', 1))!;
    await store.writeChunk('c', 'm', { ...chunk, ids: chunk.ids.slice(0, 10) }, [], { rowsDone: 40, lastId: 'd39', complete: true, bytesAdded: 0 });
    await expect(loadVectorMatrix(store, set)).rejects.toThrow(/cannot be read: chunk 1 has 512 values for 10 ids; expected at most 16 rows of 32/);
  });
});
