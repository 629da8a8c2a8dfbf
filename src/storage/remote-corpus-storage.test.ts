import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANALYZER_OPTIONS, remoteCorpusRecord } from '../core/index.ts';
import { openWorkbenchDb } from './database.ts';
import { IdbCorpusStore } from './idb-corpus-store.ts';
import { IdbSettingsStore } from './settings-store.ts';

describe('a remote corpus in this browser', () => {
  it('is stored as a ready reference, listed with the others, and deleted like one', async () => {
    const db = await openWorkbenchDb('remote-corpus-test-1');
    const store = new IdbCorpusStore(db);
    const info = { id: 'meridian', name: 'meridian', documentCount: 168, queryCount: 54, qrelCount: 90, questionCount: 22, analyzer: DEFAULT_ANALYZER_OPTIONS, embeddingSets: [] };
    await store.putRemoteCorpus(remoteCorpusRecord('remote-1', 'http://127.0.0.1:8790', info, 5));
    const [listed] = await store.listCorpora();
    expect(listed).toMatchObject({ id: 'remote-1', status: 'ready', name: 'meridian @ 127.0.0.1:8790', remote: { server: 'http://127.0.0.1:8790', corpusId: 'meridian' } });
    await store.deleteCorpus('remote-1');
    expect(await store.listCorpora()).toEqual([]);
  });

  it('keeps server tokens in the settings store, where every saved run and export is scrubbed of them', async () => {
    const settings = new IdbSettingsStore(await openWorkbenchDb('remote-corpus-test-2'));
    await settings.saveServerToken('http://10.0.0.5:8790', '  tok-123  ');
    expect(await settings.serverTokens()).toEqual({ 'http://10.0.0.5:8790': 'tok-123' });
    expect(await settings.secrets()).toContain('tok-123');
    await settings.saveServerToken('http://10.0.0.5:8790', '');
    expect(await settings.serverTokens()).toEqual({});
  });
});
