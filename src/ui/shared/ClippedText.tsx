import { useState } from 'react';
import { formatCount } from './format.ts';

/** Characters of a title or label shown before it is cut. */
export const CLIP_CHARS = 300;

/**
 * `text` cut to `max` characters with a visible "…" (never inside a surrogate pair). Corpus text can be any size: a
 * 1 MB title laid out in full froze the page for half a minute.
 */
export function clipText(text: string, max = CLIP_CHARS): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/**
 * A title or label cut to `max` characters with a visible "…". With `expandable`, a button shows the whole text on
 * demand (and cuts it again); without it the whole text is elsewhere (e.g. the document viewer).
 */
export function ClippedText({ text, max = CLIP_CHARS, expandable = false }: { text: string; max?: number; expandable?: boolean }) {
  const [whole, setWhole] = useState(false);
  if (text.length <= max) return <>{text}</>;
  if (!expandable) return <>{clipText(text, max)}</>;
  return (
    <>
      <span className="clipped-text">{whole ? text : clipText(text, max)}</span>{' '}
      <button type="button" className="link" aria-expanded={whole} onClick={() => setWhole(!whole)}>
        {whole ? 'Show less' : `Show all ${formatCount(text.length)} characters`}
      </button>
    </>
  );
}
