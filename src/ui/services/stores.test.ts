import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbCorpusStore } from '../../storage/index.ts';
import { agentRunsKey, corporaKey, embeddingSetsKey, qrelsKey, queriesKey, runKey, runsKey, storageKey } from './query-keys.ts';
import { database, getAgentRunStore, getCorpusRemoval, getCorpusStore, getRunStore, getSettingsStore, getVectorStore } from './stores.ts';

describe('ui/services stores', () => {
  it('removes a corpus left half-loaded (a closed tab) on first use, and opens ONE connection and each store once', async () => {
    // A tab closed mid-load left an 'ingesting' corpus behind, written straight into the same database.
    const earlier = new IdbCorpusStore(await database());
    await earlier.beginCorpus({ id: 'half', name: 'half-loaded', status: 'ingesting', documentCount: 0, queryCount: 0, qrelCount: 0, createdAt: 0 } as never);
    expect((await earlier.listIncomplete()).map((c) => c.id)).toEqual(['half']);

    const corpora = await getCorpusStore();
    expect(await corpora.listIncomplete()).toEqual([]);
    expect(await corpora.getCorpus('half')).toBeUndefined();

    expect(database()).toBe(database());
    const [a, b] = await Promise.all([getRunStore(), getRunStore()]);
    expect(a).toBe(b);
    expect(await getCorpusStore()).toBe(corpora);
    const stores = await Promise.all([getCorpusStore(), getRunStore(), getVectorStore(), getSettingsStore(), getAgentRunStore(), getCorpusRemoval()]);
    expect(new Set(stores).size).toBe(6);
  });

  it('query keys name the data they cache, per corpus or run', () => {
    expect(corporaKey).toEqual(['corpora']);
    expect(storageKey).toEqual(['storage']);
    expect(runsKey('c1')).toEqual(['runs', 'c1']);
    expect(runKey('r1')).toEqual(['run', 'r1']);
    expect(embeddingSetsKey('c1')).toEqual(['embedding-sets', 'c1']);
    expect(queriesKey('c1')).toEqual(['queries', 'c1']);
    expect(qrelsKey('c1')).toEqual(['qrels', 'c1']);
    expect(agentRunsKey).toEqual(['hds-runs']);
  });
});
