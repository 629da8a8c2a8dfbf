import type { Analyzer } from './analyzer.ts';

/** A run of text, marked when it matches a query term. Rendered as text, never as HTML. */
export interface TextSegment {
  text: string;
  match: boolean;
}

/** Splits `text` into segments, marking the words whose index term is one of `terms`. */
export function highlightSegments(text: string, terms: Iterable<string>, analyzer: Analyzer): TextSegment[] {
  const wanted = new Set(terms);
  const segments: TextSegment[] = [];
  let cursor = 0;
  for (const token of analyzer.tokens(text)) {
    if (token.term === null || !wanted.has(token.term)) continue;
    if (token.start > cursor) segments.push({ text: text.slice(cursor, token.start), match: false });
    segments.push({ text: token.word, match: true });
    cursor = token.start + token.word.length;
  }
  if (cursor < text.length) segments.push({ text: text.slice(cursor), match: false });
  return segments;
}
