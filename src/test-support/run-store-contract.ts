import { describe, expect, it } from 'vitest';
import { buildRunRecord, buildQrelsMap, type RunRecord, type RunStore } from '../core/index.ts';

/** A small scored run of corpus `corpusId`. */
export function sampleRun(id: string, corpusId: string, name = id, createdAt = 1_000): RunRecord {
  return buildRunRecord({
    id,
    name,
    corpusId,
    corpusName: `Corpus ${corpusId}`,
    pipeline: { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } },
    config: { k1: 0.9, b: 0.4 },
    run: new Map([
      ['q1', [{ id: 'd1', score: 2 }, { id: 'd2', score: 1 }]],
      ['q2', [{ id: 'd3', score: 1.5 }]],
    ]),
    k: 10,
    qrels: buildQrelsMap([{ queryId: 'q1', docId: 'd2', relevance: 1 }]),
    measures: ['RR@10'],
    createdAt,
    elapsedMs: 12,
  });
}

/** Behaviour every RunStore must have. */
export function describeRunStoreContract(label: string, fresh: () => Promise<RunStore>): void {
  describe(`${label} (RunStore contract)`, () => {
    it('saves a run and gives it back whole, with rankings', async () => {
      const store = await fresh();
      const run = sampleRun('r1', 'c1');
      await store.saveRun(run);
      expect(await store.getRun('r1')).toEqual(run);
      expect(await store.getRun('nope')).toBeUndefined();
    });

    it('lists the runs of one corpus, newest first, without rankings', async () => {
      const store = await fresh();
      await store.saveRun(sampleRun('old', 'c1', 'Old', 1_000));
      await store.saveRun(sampleRun('new', 'c1', 'New', 2_000));
      await store.saveRun(sampleRun('other', 'c2', 'Other', 3_000));
      const list = await store.listRuns('c1');
      expect(list.map((r) => r.name)).toEqual(['New', 'Old']);
      expect(list[0]).not.toHaveProperty('rankings');
      expect(list[0]!.rankedQueryCount).toBe(2);
      expect(list[0]!.metrics?.aggregate['RR@10']).toBe(0.5);
      expect(await store.listRuns('c3')).toEqual([]);
    });

    it('renames a run (trimmed) and refuses an empty name or an unknown run', async () => {
      const store = await fresh();
      await store.saveRun(sampleRun('r1', 'c1', 'Before'));
      await store.renameRun('r1', '  After ');
      expect((await store.getRun('r1'))!.name).toBe('After');
      expect((await store.listRuns('c1'))[0]!.name).toBe('After');
      await expect(store.renameRun('r1', '  ')).rejects.toThrow('cannot be empty');
      await expect(store.renameRun('nope', 'x')).rejects.toThrow('No run nope');
    });

    it('deletes one run, and all runs of a corpus', async () => {
      const store = await fresh();
      await store.saveRun(sampleRun('a', 'c1'));
      await store.saveRun(sampleRun('b', 'c1'));
      await store.saveRun(sampleRun('c', 'c2'));
      await store.deleteRun('a');
      expect(await store.getRun('a')).toBeUndefined();
      expect((await store.listRuns('c1')).map((r) => r.id)).toEqual(['b']);
      expect(await store.deleteRunsOfCorpus('c1')).toBe(1);
      expect(await store.listRuns('c1')).toEqual([]);
      expect(await store.getRun('b')).toBeUndefined();
      expect((await store.getRun('c'))?.corpusId).toBe('c2');
    });

    it('deletes several runs at once (repeats and unknown ids ignored), leaving the others', async () => {
      const store = await fresh();
      for (const id of ['a', 'b', 'c', 'd']) await store.saveRun(sampleRun(id, 'c1', id, id.charCodeAt(0)));
      expect(await store.deleteRuns(['a', 'c', 'c', 'nope'])).toBe(2);
      expect((await store.listRuns('c1')).map((r) => r.id)).toEqual(['d', 'b']);
      expect(await store.getRun('a')).toBeUndefined();
      expect(await store.getRun('c')).toBeUndefined();
      expect((await store.getRun('b'))?.rankings).toHaveLength(2);
      expect(await store.deleteRuns([])).toBe(0);
    });

    it('keeps an imported run’s mark', async () => {
      const store = await fresh();
      const run = { ...sampleRun('r1', 'c1'), imported: { fileName: 'run.json', at: 5_000, originalId: 'r0' } };
      await store.saveRun(run);
      expect((await store.listRuns('c1'))[0]!.imported).toEqual(run.imported);
      expect(await store.getRun('r1')).toEqual(run);
    });

    it('replaces a run saved again under the same id', async () => {
      const store = await fresh();
      await store.saveRun(sampleRun('r1', 'c1', 'First'));
      await store.saveRun({ ...sampleRun('r1', 'c1', 'Second'), rankings: [] });
      expect(await store.listRuns('c1')).toHaveLength(1);
      const run = await store.getRun('r1');
      expect(run?.name).toBe('Second');
      expect(run?.rankings).toEqual([]);
    });
  });
}
