import { sameEmbeddingModel, type EmbeddingModelInfo } from '../embedding/index.ts';
import type { EmbeddingSetRecord } from '../storage/index.ts';
import { isSharedBuffer } from './chunked-rows.ts';
import { CompactVectors, type FloatRowSource, type SharedCompactVectors } from './compact-vectors.ts';
import { SCANNER_SLOTS } from './scanner-slots.ts';
import { VectorMatrix, type SharedVectorMatrix } from './vector-matrix.ts';

/** How a worker holds a set in memory: the float32 matrix, or only the compact (int8) form. */
export type LoadedVectorForm = 'float32' | 'compact';

/**
 * Which stored set a loaded vector set was read from. The set record's times change when a set is deleted and
 * embedded again (or resumed), so a loaded set whose identity differs from the stored record is stale.
 */
export interface VectorSetIdentity {
  corpusId: string;
  modelKey: string;
  form: LoadedVectorForm;
  model: EmbeddingModelInfo;
  rows: number;
  createdAt: number;
  updatedAt: number;
}

/** The identity of `set` loaded in `form`. */
export function vectorSetIdentity(set: EmbeddingSetRecord, form: LoadedVectorForm): VectorSetIdentity {
  return { corpusId: set.corpusId, modelKey: set.modelKey, form, model: set.model, rows: set.rowsDone, createdAt: set.createdAt, updatedAt: set.updatedAt };
}

/** One slot per corpus, model and form: a newer load of the same slot replaces an older one. */
export function vectorShareKey(identity: Pick<VectorSetIdentity, 'corpusId' | 'modelKey' | 'form'>): string {
  return JSON.stringify([identity.corpusId, identity.modelKey, identity.form]);
}

/** Why identity `a` is not `b`, or null when they are the same. */
export function identityMismatch(a: VectorSetIdentity, b: VectorSetIdentity): string | null {
  if (vectorShareKey(a) !== vectorShareKey(b)) return `it holds ${vectorShareKey(a)}, not ${vectorShareKey(b)}`;
  if (!sameEmbeddingModel(a.model, b.model)) return 'it was made with another model';
  if (a.rows !== b.rows) return `it has ${a.rows} rows, the stored set ${b.rows}`;
  if (a.createdAt !== b.createdAt || a.updatedAt !== b.updatedAt) return 'the stored set was embedded again since it was loaded';
  return null;
}

/**
 * A loaded vector set as it passes between threads (postMessage): its buffers are shared, its ids are copied.
 * A compact set's memory holds the scanners' scratch areas, so each thread that adopts one is handed a
 * `scannerSlot` of its own (the loader's is 0).
 */
export type ShareableVectorSet = { identity: VectorSetIdentity } & ({ matrix: SharedVectorMatrix } | { compact: SharedCompactVectors; scannerSlot?: number });

/** What a worker holds of a loaded set: the matrix or the compact form. */
export type LoadedVectors = { matrix: VectorMatrix } | { compact: CompactVectors };

/** `loaded` ready to share, or null when its memory is not shared (then another thread would get a copy). */
export function shareableVectorSet(identity: VectorSetIdentity, loaded: LoadedVectors): ShareableVectorSet | null {
  if ('compact' in loaded) return isSharedBuffer(loaded.compact.memory.buffer) ? { identity, compact: loaded.compact.share() } : null;
  const matrix = loaded.matrix.share();
  return matrix.chunks.every((chunk) => isSharedBuffer(chunk.buffer)) ? { identity, matrix } : null;
}

/** Why `shared` cannot stand for the stored set `expected` (deleted, re-embedded, another shape), or null when it can. */
export function shareMismatch(shared: ShareableVectorSet, expected: VectorSetIdentity): string | null {
  const stale = identityMismatch(shared.identity, expected);
  if (stale) return stale;
  const { rows, model, form } = expected;
  const body = 'matrix' in shared ? shared.matrix : shared.compact;
  if (('matrix' in shared ? 'float32' : 'compact') !== form) return `it is not in ${form} form`;
  if (!sameEmbeddingModel(body.model, model)) return 'its vectors were made with another model';
  if (body.ids.length !== rows) return `it has ${body.ids.length} ids for ${rows} rows`;
  if ('matrix' in shared) {
    const { chunks, chunkRows } = shared.matrix;
    if (shared.matrix.rows !== rows) return `it has ${shared.matrix.rows} rows for ${rows}`;
    if (!chunks.every((chunk) => isSharedBuffer(chunk.buffer) && chunk.length === chunkRows * model.dimensions)) return 'its rows are not in whole shared chunks';
    const { arena, scannerSlot } = shared.matrix;
    if (scannerSlot !== undefined && (!arena || !Number.isInteger(scannerSlot) || scannerSlot < 0 || scannerSlot >= SCANNER_SLOTS)) return 'it was handed over with a scanner slot it cannot use';
  } else if (!isSharedBuffer(shared.compact.memory.buffer)) {
    return 'its memory is not shared';
  } else if (!Number.isInteger(shared.scannerSlot) || shared.scannerSlot! < 0 || shared.scannerSlot! >= SCANNER_SLOTS) {
    return 'it was handed over without a scanner slot of its own';
  }
  return null;
}

/**
 * The vectors of `shared` in this thread, over the same memory (nothing copied but the ids); throws when they do
 * not match the stored set `expected`. `floatRows` is where a compact form's rescoring reads.
 */
export function adoptVectorSet(shared: ShareableVectorSet, expected: VectorSetIdentity, options: { floatRows?: FloatRowSource } = {}): LoadedVectors {
  const mismatch = shareMismatch(shared, expected);
  if (mismatch) throw new Error(`The shared vectors of ${expected.model.modelId} cannot be used: ${mismatch}.`);
  return 'matrix' in shared ? { matrix: VectorMatrix.adopt(shared.matrix) } : { compact: CompactVectors.adopt(shared.compact, { floatRows: options.floatRows, scannerSlot: shared.scannerSlot }) };
}
