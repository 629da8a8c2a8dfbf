/** BM25 scoring settings. They apply at query time: changing them needs no re-indexing. */
export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation: 0 ignores document length, 1 normalises fully. */
  b: number;
  /** BM25+ lower bound added to every matching term's tf part; 0 gives plain Okapi BM25. */
  d: number;
  /**
   * MiniSearch multiplies a document's score by the number of query terms it matches. Off for plain BM25,
   * which is what the published baselines use.
   */
  termCountBoost: boolean;
}

/** Plain Okapi BM25 with the parameters that do best on the shipped test collections (k1 0.9, b 0.4). */
export const OKAPI_BM25: Readonly<Bm25Params> = Object.freeze({ k1: 0.9, b: 0.4, d: 0, termCountBoost: false });

/** MiniSearch's own defaults (BM25+ with the matched-terms multiplier), for comparison. */
export const MINISEARCH_BM25: Readonly<Bm25Params> = Object.freeze({ k1: 1.2, b: 0.7, d: 0.5, termCountBoost: true });

/** Checks parameters from a form, a URL or the command line; throws with a message naming the field. */
export function validateBm25Params(params: Bm25Params): Bm25Params {
  const check = (name: string, value: number, ok: boolean) => {
    if (!Number.isFinite(value) || !ok) throw new Error(`BM25 parameter ${name} must be ${RULES[name]}, got ${value}`);
  };
  check('k1', params.k1, params.k1 >= 0);
  check('b', params.b, params.b >= 0 && params.b <= 1);
  check('d', params.d, params.d >= 0);
  return params;
}

const RULES: Record<string, string> = { k1: 'a number ≥ 0', b: 'a number between 0 and 1', d: 'a number ≥ 0' };
