import type { CorpusStore } from '../core/index.ts';

/** Name of the Web Lock held while a corpus is being loaded, so other tabs leave it alone. */
export function ingestLockName(corpusId: string): string {
  return `dsw-ingest:${corpusId}`;
}

/**
 * Removes corpora left half-written (a tab closed or crashed mid-load). A corpus whose loader still holds its
 * lock, in this tab or another, is left alone.
 */
export async function removeIncompleteCorpora(store: CorpusStore, locks: LockManager | undefined = globalThis.navigator?.locks): Promise<string[]> {
  const incomplete = await store.listIncomplete();
  if (incomplete.length === 0) return [];
  const held = new Set((locks ? ((await locks.query()).held ?? []) : []).map((lock) => lock.name));
  const removed: string[] = [];
  for (const corpus of incomplete) {
    if (held.has(ingestLockName(corpus.id))) continue;
    await store.deleteCorpus(corpus.id);
    removed.push(corpus.name);
  }
  return removed;
}
