/**
 * Answer metrics with SQuAD v1.1 normalisation (M3, docs/decisions.md#metrics): exact match and token F1,
 * each the maximum over the reference answers.
 */

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
// Python's `\b(a|an|the)\b` on str is Unicode-aware; JS `\b` is ASCII-only, so spell the boundary out.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/**
 * SQuAD answer normalisation: lower-case, delete ASCII punctuation, replace the words `a`, `an`, `the` with a
 * space, collapse whitespace to single spaces and trim.
 */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(ASCII_PUNCTUATION, '')
    .replace(ARTICLES, ' ')
    .split(/\s+/)
    .filter((t) => t !== '')
    .join(' ');
}

/** Whether reference answers can be scored: a non-empty list of non-blank strings. */
export function isValidAnswerList(references: readonly string[] | null | undefined): boolean {
  return !!references && references.length > 0 && references.every((r) => typeof r === 'string' && r.trim() !== '');
}

/**
 * 1 if the normalised prediction equals some normalised reference, else 0. A missing prediction counts as "".
 * Null when the references are not valid (see `isValidAnswerList`).
 */
export function exactMatch(prediction: string | null | undefined, references: readonly string[]): number | null {
  if (!isValidAnswerList(references)) return null;
  const pred = normalizeAnswer(prediction ?? '');
  return references.some((ref) => normalizeAnswer(ref) === pred) ? 1 : 0;
}

/**
 * The best SQuAD token F1 of the prediction against any reference: tokens are the normalised text split on
 * spaces; overlap is the multiset intersection; if either side has no tokens, 1 when both are empty else 0.
 * A missing prediction counts as "". Null when the references are not valid.
 */
export function tokenF1(prediction: string | null | undefined, references: readonly string[]): number | null {
  if (!isValidAnswerList(references)) return null;
  const predTokens = tokens(prediction ?? '');
  return Math.max(...references.map((ref) => pairF1(predTokens, tokens(ref))));
}

function tokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized === '' ? [] : normalized.split(' ');
}

function pairF1(pred: readonly string[], ref: readonly string[]): number {
  if (pred.length === 0 || ref.length === 0) return pred.length === ref.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of ref) counts.set(t, (counts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const t of pred) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(t, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / pred.length;
  const recall = overlap / ref.length;
  return (2 * precision * recall) / (precision + recall);
}
