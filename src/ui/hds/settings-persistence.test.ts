import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { defaultSpec } from '../../core/index.ts';
import { getSettingsStore } from '../services/stores.ts';
import { initialSearchSettings, useSearchSettings } from '../shared/search-settings.ts';
import { useHdsSettings } from './settings-state.ts';

describe('Deep search retriever persistence', () => {
  it('is saved with the Deep search settings and comes back after a reload', async () => {
    await useHdsSettings.getState().load();
    const spec = { ...defaultSpec('rrf', 'tiny-bert|fp32|mean'), k: 30 };
    useHdsSettings.getState().setSpec(spec);
    useHdsSettings.getState().setBudget({ maxTurns: 3 });
    expect(useSearchSettings.getState().deepSearch).toEqual(spec);
    await useHdsSettings.getState().flush();

    // Same record and key as before the search-settings store existed.
    const saved = (await (await getSettingsStore()).getUiSettings()) as { spec: unknown; budget: { maxTurns: number } };
    expect(saved.spec).toEqual(spec);
    expect(saved.budget.maxTurns).toBe(3);

    // A reload: fresh in-memory state, then the page loads its settings.
    useSearchSettings.setState(initialSearchSettings());
    useHdsSettings.setState({ loaded: false });
    expect(useSearchSettings.getState().deepSearch.kind).toBe('bm25');
    await useHdsSettings.getState().load();
    expect(useSearchSettings.getState().deepSearch).toEqual(spec);
    expect(useHdsSettings.getState().budget.maxTurns).toBe(3);
  });
});
