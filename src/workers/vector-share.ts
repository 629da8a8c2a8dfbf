// One copy per tab of a loaded vector set: a broker (run by the page) keeps the sets that workers loaded into shared
// memory and hands them to the next worker that needs the same one. Pure TypeScript: the page's glue is
// ui/services/vector-broker.ts.
import {
  adoptVectorSet,
  identityMismatch,
  loadCompactVectors,
  loadVectorMatrix,
  shareableVectorSet,
  shareMismatch,
  storedFloatRows,
  SCANNER_SLOTS,
  vectorSetIdentity,
  vectorShareKey,
  type EmbeddingSetRecord,
  type LoadedVectorForm,
  type LoadedVectors,
  type ShareableVectorSet,
  type VectorSetIdentity,
  type VectorStore,
} from '../core/index.ts';

/** What a worker asks the broker (over a MessagePort, through comlink). */
export interface VectorShare {
  /** The loaded set matching the stored set `identity`, or null (none held, stale, or no scanner slot left). */
  take(identity: VectorSetIdentity): Promise<ShareableVectorSet | null> | ShareableVectorSet | null;
  /** A set this worker loaded from storage into shared memory; the first offer of a set is kept. */
  offer(set: ShareableVectorSet): Promise<void> | void;
}

/** What a worker API offers to be connected to the broker. */
export interface VectorShareTarget {
  /** Connects this worker to the page's broker (sent once, right after the worker starts). */
  shareVectors(port: MessagePort): void;
}

/** A load from storage or a hand-over, for the record (tests read it). */
export interface VectorShareEvent {
  kind: 'loaded' | 'shared';
  worker: string;
  key: string;
}

/** The sets loaded into shared memory in this tab, by corpus, model and form; the `keep` most recently used stay. */
export class VectorShareBroker {
  private readonly sets = new Map<string, ShareableVectorSet>();
  /** Per compact set, the scanner slot (scratch area in its memory) of each worker that holds it; the loader's is 0. */
  private readonly slots = new Map<string, Map<string, number>>();
  readonly events: VectorShareEvent[] = [];

  constructor(private readonly keep = 2) {}

  /** Sets held. */
  get size(): number {
    return this.sets.size;
  }

  take(identity: VectorSetIdentity, worker: string): ShareableVectorSet | null {
    const key = vectorShareKey(identity);
    const set = this.sets.get(key);
    if (!set) return null;
    if (identityMismatch(set.identity, identity)) {
      // Embedded again since it was loaded: dropped, unless it is newer than the record this worker read.
      if (set.identity.updatedAt <= identity.updatedAt) this.drop(key);
      return null;
    }
    const inArena = 'matrix' in set && set.matrix.arena !== undefined;
    const slot = 'compact' in set || inArena ? this.scannerSlot(key, worker) : null;
    if ('compact' in set && slot === null) return null; // every scratch area taken: this worker keeps a copy of its own
    this.sets.delete(key);
    this.sets.set(key, set); // most recently used last
    this.events.push({ kind: 'shared', worker, key });
    if ('matrix' in set) return slot === null ? set : { ...set, matrix: { ...set.matrix, scannerSlot: slot } }; // no slot: scans by copy
    return slot === null ? set : { ...set, scannerSlot: slot };
  }

  private scannerSlot(key: string, worker: string): number | null {
    const held = this.slots.get(key)!;
    const own = held.get(worker);
    if (own !== undefined) return own;
    const used = new Set(held.values());
    for (let slot = 0; slot < SCANNER_SLOTS; slot++) {
      if (used.has(slot)) continue;
      held.set(worker, slot);
      return slot;
    }
    return null;
  }

  private drop(key: string): void {
    this.sets.delete(key);
    this.slots.delete(key);
  }

  offer(set: ShareableVectorSet, worker: string): void {
    const key = vectorShareKey(set.identity);
    this.events.push({ kind: 'loaded', worker, key });
    const held = this.sets.get(key);
    // Two workers that missed at once both load; the first copy stays the tab's, the second is the loader's own.
    if (held && !identityMismatch(held.identity, set.identity)) return;
    this.drop(key);
    this.sets.set(key, set);
    this.slots.set(key, new Map([[worker, 0]])); // the loader's own searches use slot 0
    while (this.sets.size > this.keep) this.drop(this.sets.keys().next().value!);
  }

  /** Drops every set of a corpus (it or one of its sets was deleted). */
  forget(corpusId: string): void {
    for (const [key, set] of this.sets) if (set.identity.corpusId === corpusId) this.drop(key);
  }

  /** The broker as one worker sees it. */
  forWorker(worker: string): VectorShare {
    return { take: (identity) => this.take(identity, worker), offer: (set) => this.offer(set, worker) };
  }
}

/**
 * A complete stored set in `form`: the copy another worker already loaded when `share` (the broker, connected in a
 * cross-origin isolated page) holds a matching one, else loaded from storage into shared memory and offered to it.
 * Without `share`, loaded as before: a copy of this worker's own.
 */
export async function loadVectorSet(
  store: VectorStore,
  set: EmbeddingSetRecord,
  form: LoadedVectorForm,
  share: VectorShare | null,
): Promise<{ stored: LoadedVectors; shared: boolean }> {
  const identity = vectorSetIdentity(set, form);
  if (share) {
    const offered = await Promise.resolve(share.take(identity)).catch(() => null);
    if (offered && !shareMismatch(offered, identity)) return { stored: adoptVectorSet(offered, identity, { floatRows: storedFloatRows(store, set) }), shared: true };
  }
  const stored: LoadedVectors = form === 'compact' ? { compact: await loadCompactVectors(store, set) } : { matrix: await loadVectorMatrix(store, set, { shared: share !== null }) };
  const shareable = share && shareableVectorSet(identity, stored);
  if (shareable) await Promise.resolve(share.offer(shareable)).catch(() => {});
  return { stored, shared: false };
}
