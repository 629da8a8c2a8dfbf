import { queryClient } from '../services/query-client.ts';

// Tabs of the workbench tell each other when corpora change, so no tab keeps listing or searching a deleted one.
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('dsw-corpora');

/** Refreshes everything that lists corpora or what belongs to them, in this tab. */
export function refreshCorpusViews(): Promise<unknown> {
  return Promise.all(
    [['corpora'], ['storage'], ['runs'], ['embedding-sets'], ['hds-runs']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/** Tells the other tabs that corpora were loaded, renamed or deleted (and refreshes this one). */
export function announceCorporaChanged(): Promise<unknown> {
  channel?.postMessage('changed');
  return refreshCorpusViews();
}

channel?.addEventListener('message', () => void refreshCorpusViews());
