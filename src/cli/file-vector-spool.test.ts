import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CompactVectors, loadSpooledCompactVectors, searchCompact, VectorMatrix, type EmbeddingModelInfo } from '../core/index.ts';
import { seededRandom, unitRows } from '../test-support/random-vectors.ts';
import { FileVectorSpool } from './file-vector-spool.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-vector-spool-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const model = (dimensions: number): EmbeddingModelInfo => ({ modelId: 'test', dtype: 'fp32', pooling: 'mean', dimensions, prefixes: { query: '', passage: '' } });

// Counts positioned reads of the spool file.
async function countingSpool(dimensions: number) {
  const counts = { reads: 0 };
  const spool = await FileVectorSpool.create({
    dimensions,
    dir,
    open: async (file) => {
      const handle = await fsp.open(file, 'w+');
      return {
        read: ((...args: Parameters<typeof handle.read>) => (counts.reads++, handle.read(...args))) as typeof handle.read,
        write: handle.write.bind(handle),
        close: handle.close.bind(handle),
      };
    },
  });
  return { spool, counts };
}

describe('FileVectorSpool', () => {
  it('reads back every row as appended, in the order asked, and ranges of rows', async () => {
    const dims = 7;
    const values = unitRows(seededRandom(3), 300, dims);
    const spool = await FileVectorSpool.create({ dimensions: dims, dir });
    try {
      // the second and third appends start while the first is still being written; the array is reused at once
      const scratch = values.slice(0, 100 * dims);
      const first = spool.append(scratch);
      scratch.fill(0);
      void spool.append(values.subarray(100 * dims, 250 * dims));
      await spool.append(values.subarray(250 * dims));
      await first;
      expect(spool.count).toBe(300);
      expect(fs.statSync(spool.path).size).toBe(300 * dims * 4);
      const asked = [299, 0, 150, 151, 7, 7, 100];
      const rows = await spool.read(asked);
      rows.forEach((row, i) => expect(Array.from(row)).toEqual(Array.from(values.subarray(asked[i]! * dims, (asked[i]! + 1) * dims))));
      expect(Array.from(await spool.readRange(95, 10))).toEqual(Array.from(values.subarray(95 * dims, 105 * dims)));
      expect(await spool.readRange(4, 0)).toHaveLength(0);
    } finally {
      await spool.close();
    }
  });

  it('reads each run of consecutive rows with one positioned read', async () => {
    const { spool, counts } = await countingSpool(4);
    try {
      await spool.append(unitRows(seededRandom(1), 50, 4));
      counts.reads = 0;
      await spool.read([21, 5, 6, 3, 7, 20, 6]);
      expect(counts.reads).toBe(3); // 3; 5–7; 20–21
    } finally {
      await spool.close();
    }
  });

  it('refuses rows it does not hold, values that are not whole rows and use after close, in words', async () => {
    const spool = await FileVectorSpool.create({ dimensions: 3, dir });
    await spool.append(new Float32Array(6));
    await expect(spool.read([2])).rejects.toThrow('No vector at row 2 of the spool (it holds 2)');
    await expect(spool.readRange(1, 2)).rejects.toThrow('No vector at row 2');
    await expect(spool.append(new Float32Array(4))).rejects.toThrow('4 values are not whole rows of 3');
    const folder = path.dirname(spool.path);
    expect(fs.existsSync(folder)).toBe(true);
    await spool.close();
    expect(fs.existsSync(folder)).toBe(false);
    await expect(spool.read([0])).rejects.toThrow('The vector spool is closed');
    await expect(spool.append(new Float32Array(3))).rejects.toThrow('The vector spool is closed');
  });

  it('reports a failed write on the next read', async () => {
    const spool = await FileVectorSpool.create({
      dimensions: 2,
      dir,
      open: async (file) => {
        const handle = await fsp.open(file, 'w+');
        return { read: handle.read.bind(handle), write: () => Promise.reject(new Error('disk full')), close: handle.close.bind(handle) };
      },
    });
    await expect(spool.append(new Float32Array(2))).rejects.toThrow(/Cannot write the vector spool .*: disk full/);
    await expect(spool.read([0])).rejects.toThrow('disk full');
    await spool.close();
  });

  it('rescores compact search candidates from the file exactly as from float32 rows in memory', async () => {
    const dims = 48;
    const rows = 20_000; // more than one pass of the loader
    const ids = Array.from({ length: rows }, (_, i) => `d${i}`);
    const values = unitRows(seededRandom(9), rows, dims);
    const matrix = new VectorMatrix({ model: model(dims), chunkRows: 512 });
    matrix.addBatch(ids, values);
    const inMemory = CompactVectors.fromMatrix(matrix);
    const { spool, counts } = await countingSpool(dims);
    try {
      for (let at = 0; at < rows; at += 3000) await spool.append(values.subarray(at * dims, Math.min(rows, at + 3000) * dims));
      const spooled = await loadSpooledCompactVectors(spool, model(dims), ids);
      expect(Array.from(spooled.dequantized(12_345))).toEqual(Array.from(inMemory.dequantized(12_345)));
      const random = seededRandom(5);
      for (let i = 0; i < 5; i++) {
        const query = { vector: unitRows(random, 1, dims), model: model(dims) };
        for (const firstPass of ['int8', 'binary'] as const) {
          counts.reads = 0;
          const hits = await searchCompact(spooled, query, 10, { firstPass });
          expect(hits).toEqual(await searchCompact(inMemory, query, 10, { firstPass }));
          expect(counts.reads).toBeGreaterThan(0); // the float rows came from the file
          expect(counts.reads).toBeLessThanOrEqual(40);
        }
      }
    } finally {
      await spool.close();
    }
  });
});
