import { CompactVectors } from './compact-vectors.ts';
import type { VectorMatrix } from './vector-matrix.ts';

/**
 * How dense search holds and scans pooled vectors: `float32` exact; `int8` first pass, float32 rescoring of the
 * best candidates (recall ≤ 1); `int8-exact` the same first pass, certified exact (float32's hits and scores, to
 * the bit: see `searchCompactExact`); `binary` sign bits, then int8, then float32 rescoring.
 */
export type VectorForm = 'float32' | 'int8' | 'int8-exact' | 'binary';
/** A pipeline's choice: a form, or `auto` (float32 below {@link COMPACT_FROM_ROWS} rows, int8 from there). */
export type VectorFormChoice = VectorForm | 'auto';

export const VECTOR_FORMS: readonly VectorForm[] = ['float32', 'int8', 'int8-exact', 'binary'];

/** From this many rows `auto` picks int8: float32 rows of 384 dimensions would pass 300 MB. */
export const COMPACT_FROM_ROWS = 200_000;

/** The form a choice means for a set of `rows` vectors. */
export function resolveVectorForm(choice: VectorFormChoice | undefined, rows: number): VectorForm {
  const form = choice ?? 'auto';
  if (form === 'auto') return rows >= COMPACT_FROM_ROWS ? 'int8' : 'float32';
  if (!(VECTOR_FORMS as readonly string[]).includes(form)) throw new Error(`Unknown vector form "${String(form)}"; use auto, ${VECTOR_FORMS.join(', ')}.`);
  return form;
}

// One compact copy per float matrix, however many retrievers are built over it.
const compactOfMatrix = new WeakMap<VectorMatrix, CompactVectors>();

/** The compact form of a float32 matrix, made once and kept while the matrix lives; rescoring reads its rows. */
export function compactFormOf(matrix: VectorMatrix): CompactVectors {
  let compact = compactOfMatrix.get(matrix);
  if (!compact) {
    compact = CompactVectors.fromMatrix(matrix);
    compactOfMatrix.set(matrix, compact);
  }
  return compact;
}
