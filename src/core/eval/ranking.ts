import type { ScoredDoc } from '../ranking/index.ts';

/** How a query's returned documents become the ranking that is evaluated. */
export interface RankingOptions {
  /** Drop a result whose document id equals the query id (BEIR's rule). Default true. */
  ignoreIdenticalIds?: boolean;
}

/**
 * Compares two strings by Unicode code point, which is the byte order of their UTF-8 encodings and so the
 * order of C's `strcmp` used by trec_eval. (JS `<` compares UTF-16 code units, which differs for characters
 * above U+FFFF.)
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800–DFFF) encodes a code point above U+FFFF, so it sorts after every BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * The document ids of one query's results in the order trec_eval evaluates them:
 * - a document id seen twice keeps its first occurrence (list order); later ones are dropped;
 * - a result whose id equals the query id is dropped (unless `ignoreIdenticalIds` is false);
 * - sorted by score descending, ties by document id descending (code-point order, like trec_eval);
 *   the list's own order and any rank column are ignored. A NaN score sorts as −Infinity.
 */
export function rankForEvaluation(
  queryId: string,
  docs: readonly ScoredDoc[],
  options: RankingOptions = {},
): string[] {
  const ignoreIdentical = options.ignoreIdenticalIds ?? true;
  const seen = new Set<string>();
  const kept: ScoredDoc[] = [];
  for (const doc of docs) {
    if (seen.has(doc.id)) continue;
    seen.add(doc.id);
    if (ignoreIdentical && doc.id === queryId) continue;
    kept.push(doc);
  }
  const score = (d: ScoredDoc): number => (Number.isNaN(d.score) ? -Infinity : d.score);
  kept.sort((a, b) => {
    const sa = score(a);
    const sb = score(b);
    if (sa !== sb) return sa > sb ? -1 : 1;
    return compareCodePoints(b.id, a.id);
  });
  return kept.map((d) => d.id);
}
