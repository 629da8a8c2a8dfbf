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

/**
 * Checks parameters from a form, a URL, the command line or a request; throws with a message naming the field. The
 * upper bounds keep every score finite: past k1 = 1000 the term-frequency part no longer changes a ranking, and
 * larger values (1e308) overflowed to scores that are not numbers.
 */
export function validateBm25Params(params: Bm25Params): Bm25Params {
  const check = (name: keyof typeof RULES, value: unknown, max: number) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
      throw new Error(`BM25 parameter ${name} must be ${RULES[name]}, got ${typeof value === 'number' ? String(value) : JSON.stringify(value) ?? 'nothing'}`);
    }
  };
  check('k1', params.k1, BM25_MAX.k1);
  check('b', params.b, 1);
  check('d', params.d, BM25_MAX.d);
  if (typeof params.termCountBoost !== 'boolean') {
    throw new Error(`BM25 parameter termCountBoost must be true or false, got ${JSON.stringify(params.termCountBoost) ?? 'nothing'}`);
  }
  return params;
}

/** The largest k1 and d accepted. */
export const BM25_MAX = Object.freeze({ k1: 1000, d: 1000 });

const RULES = { k1: `a number from 0 to ${BM25_MAX.k1}`, b: 'a number from 0 to 1', d: `a number from 0 to ${BM25_MAX.d}` };
