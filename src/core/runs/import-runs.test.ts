import { describe, expect, it } from 'vitest';
import { sampleRun } from '../../test-support/run-store-contract.ts';
import { labSweepsFromRuns, sweepTagOf } from './saved-sweep.ts';
import { prepareRunImport } from './import-runs.ts';
import { summarizeRun, type RunRecord } from './run-record.ts';

let next = 0;
const context = (existing: RunRecord[] = []) => ({ corpusId: 'c1', corpusName: 'Here', fileName: 'runs.json', at: 7_000, existing: existing.map(summarizeRun), newId: () => `new-${++next}` });
const inSweep = (run: RunRecord, sweep: string): RunRecord => ({ ...run, config: { sweep: { id: sweep, name: 'S', role: 'primary' } } });

describe('prepareRunImport', () => {
  it('makes each run a new run of this corpus, marked with the file, the time and its id in the file', () => {
    const { records, alreadyHere } = prepareRunImport([sampleRun('r-file', 'elsewhere')], context());
    expect(alreadyHere).toEqual([]);
    expect(records[0]).toMatchObject({ corpusId: 'c1', corpusName: 'Here', imported: { fileName: 'runs.json', at: 7_000, originalId: 'r-file' } });
    expect(records[0]!.id).toMatch(/^new-/);
    expect(records[0]!.notes).toBe('Imported from runs.json (made on corpus “Corpus elsewhere”)');
  });

  it('says a run is already here (made here, or imported before) and imports it as a marked copy', () => {
    const made = sampleRun('r1', 'c1', 'Tuned');
    const first = prepareRunImport([made], context([made]));
    expect(first.alreadyHere).toEqual([{ name: 'Tuned', existingName: 'Tuned', importedAt: null }]);
    const copy = first.records[0]!;
    expect(copy.id).not.toBe('r1');
    // The copy exported and imported again is still recognised by the first run's id.
    const again = prepareRunImport([copy], context([copy]));
    expect(again.alreadyHere).toEqual([{ name: 'Tuned', existingName: 'Tuned', importedAt: 7_000 }]);
    expect(again.records[0]!.imported?.originalId).toBe('r1');
  });

  it('gives a sweep imported a second time its own sweep id, so the two copies never merge', () => {
    const sweep = [inSweep(sampleRun('a', 'c1'), 's1'), inSweep({ ...sampleRun('b', 'c1'), config: { sweep: { id: 's1', name: 'S', role: 'point', point: { id: 'p', index: 0 } } } }, 's1')];
    const fresh = prepareRunImport(sweep, context());
    expect(fresh.records.map((r) => sweepTagOf(r)?.id)).toEqual(['s1', 's1']);
    const second = prepareRunImport(sweep, context(fresh.records));
    const ids = second.records.map((r) => sweepTagOf(r)?.id);
    expect(ids[0]).not.toBe('s1');
    expect(ids[1]).toBe(ids[0]);
    expect(second.alreadyHere).toHaveLength(2);
    expect(new Set(labSweepsFromRuns([...fresh.records, ...second.records].map(summarizeRun)).map((s) => s.id)).size).toBe(2);
  });
});
