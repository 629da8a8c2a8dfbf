// The behaviour every VectorStore must have, run against each implementation by its own test file.
import { describe, expect, it } from 'vitest';
import type { EmbeddingModelInfo, EmbeddingSetRecord, VectorStore } from '../core/index.ts';

export const contractModel: EmbeddingModelInfo = { modelId: 'm', dtype: 'fp32', pooling: 'mean', dimensions: 2, prefixes: { query: '', passage: '' } };

export function setRecord(corpusId: string, modelKey: string, overrides: Partial<EmbeddingSetRecord> = {}): EmbeddingSetRecord {
  return {
    corpusId,
    modelKey,
    model: contractModel,
    source: { location: 'app', modelId: 'm' },
    maxTokens: 128,
    chunkRows: 2,
    tokens: false,
    totalRows: 3,
    rowsDone: 0,
    lastId: null,
    complete: false,
    device: 'cpu',
    bytes: 0,
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

const f32 = (...values: number[]) => Float32Array.from(values);

export function describeVectorStoreContract(name: string, makeStore: () => Promise<VectorStore>): void {
  describe(`${name} (VectorStore contract)`, () => {
    it('creates a set once and lists the sets of a corpus, newest first', async () => {
      const store = await makeStore();
      await store.createSet(setRecord('c1', 'k1'));
      await store.createSet(setRecord('c1', 'k2', { createdAt: 2000 }));
      await store.createSet(setRecord('c2', 'k1'));
      await expect(store.createSet(setRecord('c1', 'k1'))).rejects.toThrow(/already exists/);
      expect((await store.listSets('c1')).map((s) => s.modelKey)).toEqual(['k2', 'k1']);
      expect(await store.getSet('c3', 'k1')).toBeUndefined();
    });

    it('writes chunks with the progress, rewrites a partial chunk, and reads them back in order', async () => {
      const store = await makeStore();
      await store.createSet(setRecord('c1', 'k1'));
      await store.writeChunk('c1', 'k1', { index: 0, ids: ['a', 'b'], vectors: f32(1, 0, 0, 1) }, [], {
        rowsDone: 2,
        lastId: 'b',
        complete: false,
        bytesAdded: 16,
      });
      await store.writeChunk('c1', 'k1', { index: 1, ids: ['c'], vectors: f32(0.6, 0.8) }, [], { rowsDone: 3, lastId: 'c', complete: false, bytesAdded: 8 });
      // A resumed partial chunk is rewritten under the same index.
      await store.writeChunk('c1', 'k1', { index: 1, ids: ['c', 'd'], vectors: f32(0.6, 0.8, -1, 0) }, [], {
        rowsDone: 4,
        lastId: 'd',
        complete: true,
        bytesAdded: 8,
      });
      const set = (await store.getSet('c1', 'k1'))!;
      expect({ rowsDone: set.rowsDone, lastId: set.lastId, complete: set.complete, bytes: set.bytes }).toEqual({
        rowsDone: 4,
        lastId: 'd',
        complete: true,
        bytes: 32,
      });
      const chunks = await store.getChunks('c1', 'k1');
      expect(chunks.map((c) => [c.index, c.ids])).toEqual([
        [0, ['a', 'b']],
        [1, ['c', 'd']],
      ]);
      expect(Array.from(chunks[1]!.vectors)).toEqual([Math.fround(0.6), Math.fround(0.8), -1, 0]);
      expect((await store.getChunk('c1', 'k1', 0))!.ids).toEqual(['a', 'b']);
      expect(await store.getChunk('c1', 'k1', 5)).toBeUndefined();
    });

    it('reads single rows of a chunk, in the order asked, where the store has row readers', async () => {
      const store = await makeStore();
      if (!store.chunkRowReader) return;
      await store.createSet(setRecord('c1', 'k1', { chunkRows: 3 }));
      await store.writeChunk('c1', 'k1', { index: 0, ids: ['a', 'b', 'c'], vectors: f32(1, 0, 0, 1, 0.6, 0.8) }, [], {
        rowsDone: 3,
        lastId: 'c',
        complete: true,
        bytesAdded: 24,
      });
      const reader = (await store.chunkRowReader('c1', 'k1', 0))!;
      expect((await reader.rows([2, 0, 2])).map((r) => Array.from(r))).toEqual([
        [Math.fround(0.6), Math.fround(0.8)],
        [1, 0],
        [Math.fround(0.6), Math.fround(0.8)],
      ]);
      expect(await reader.rows([])).toEqual([]);
      await expect(reader.rows([3])).rejects.toThrow(/row 3 is not within the chunk's 3 rows/);
      expect(await store.chunkRowReader('c1', 'k1', 1)).toBeUndefined();
      expect(await store.chunkRowReader('c1', 'k2', 0)).toBeUndefined();
    });

    it('keeps token batches apart from pooled chunks, in row order', async () => {
      const store = await makeStore();
      await store.createSet(setRecord('c1', 'k1', { tokens: true }));
      const tokens = [
        { startRow: 0, ids: ['a'], counts: Int32Array.of(2), vectors: f32(1, 0, 0, 1) },
        { startRow: 1, ids: ['b'], counts: Int32Array.of(1), vectors: f32(0, 1) },
      ];
      await store.writeChunk('c1', 'k1', { index: 0, ids: ['a', 'b'], vectors: f32(1, 0, 0, 1) }, tokens.slice().reverse(), {
        rowsDone: 2,
        lastId: 'b',
        complete: true,
        bytesAdded: 40,
      });
      expect((await store.getChunks('c1', 'k1')).map((c) => c.index)).toEqual([0]);
      const read = await store.getTokenBatches('c1', 'k1');
      expect(read.map((t) => [t.startRow, t.ids, Array.from(t.counts), Array.from(t.vectors)])).toEqual([
        [0, ['a'], [2], [1, 0, 0, 1]],
        [1, ['b'], [1], [0, 1]],
      ]);
    });

    it('refuses to write into a deleted set', async () => {
      const store = await makeStore();
      await store.createSet(setRecord('c1', 'k1'));
      await store.deleteSet('c1', 'k1');
      await expect(
        store.writeChunk('c1', 'k1', { index: 0, ids: ['a'], vectors: f32(1, 0) }, [], { rowsDone: 1, lastId: 'a', complete: false, bytesAdded: 8 }),
      ).rejects.toThrow(/deleted/);
      expect(await store.getChunks('c1', 'k1')).toEqual([]);
    });

    it('deletes one set, or every set of a corpus, and nothing else', async () => {
      const store = await makeStore();
      const write = async (corpusId: string, modelKey: string) => {
        await store.createSet(setRecord(corpusId, modelKey, { tokens: true }));
        await store.writeChunk(
          corpusId,
          modelKey,
          { index: 0, ids: ['a'], vectors: f32(1, 0) },
          [{ startRow: 0, ids: ['a'], counts: Int32Array.of(1), vectors: f32(1, 0) }],
          { rowsDone: 1, lastId: 'a', complete: false, bytesAdded: 16 },
        );
      };
      await write('c1', 'k1');
      await write('c1', 'k2');
      await write('c2', 'k1');
      await store.deleteSet('c1', 'k1');
      expect(await store.getSet('c1', 'k1')).toBeUndefined();
      expect(await store.getChunks('c1', 'k1')).toEqual([]);
      expect(await store.getTokenBatches('c1', 'k1')).toEqual([]);
      expect((await store.getChunks('c1', 'k2')).length).toBe(1);
      await store.deleteCorpusSets('c1');
      expect(await store.listSets('c1')).toEqual([]);
      expect(await store.getTokenBatches('c1', 'k2')).toEqual([]);
      expect((await store.listSets('c2')).length).toBe(1);
      expect((await store.getChunks('c2', 'k1')).length).toBe(1);
    });
  });
}
