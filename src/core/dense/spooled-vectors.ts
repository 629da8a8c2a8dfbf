import type { EmbeddingModelInfo } from '../embedding/index.ts';
import type { VectorSpool } from '../storage/index.ts';
import { CompactVectors, type CompactVectorsOptions } from './compact-vectors.ts';

/** Rows read per sequential read when quantising a spool: 8192 × 384 float32 is 12 MiB. */
const PASS_ROWS = 8192;

/**
 * The compact form of the rows in a spool, quantised as they are read in one sequential pass, so memory holds the
 * compact form and one pass buffer: the float32 rows stay in the spool and rescoring reads its few candidates there.
 * `ids` names the spool's rows in order.
 */
export async function loadSpooledCompactVectors(
  spool: VectorSpool,
  model: EmbeddingModelInfo,
  ids: readonly string[],
  options: Omit<CompactVectorsOptions, 'floatRows'> & { signal?: AbortSignal } = {},
): Promise<CompactVectors> {
  if (spool.dimensions !== model.dimensions) throw new Error(`The vector spool holds rows of ${spool.dimensions} values; ${model.modelId} makes ${model.dimensions}.`);
  if (spool.count !== ids.length) throw new Error(`The vector spool holds ${spool.count} rows for ${ids.length} document ids.`);
  const { signal, ...compactOptions } = options;
  const compact = CompactVectors.allocate(model, ids, { ...compactOptions, floatRows: (rows) => spool.read(rows) });
  for (let first = 0; first < ids.length; first += PASS_ROWS) {
    signal?.throwIfAborted();
    compact.setRows(first, await spool.readRange(first, Math.min(PASS_ROWS, ids.length - first)));
  }
  return compact;
}
