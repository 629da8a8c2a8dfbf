import { memo, useState } from 'react';
import { PIECE_CHARS, TextPieces } from './text-pieces.ts';

export { PIECE_CHARS };
/** Characters shown before "Show all": the DOM stays this size however long the text grows. */
export const SHOWN_TAIL_CHARS = 8_192;

const Piece = memo(function Piece({ text }: { text: string }) {
  return <span>{text}</span>;
});

/**
 * Model text that may grow to megabytes while it streams, rendered in bounded DOM: fixed pieces (only the last
 * one changes as text arrives), and beyond `SHOWN_TAIL_CHARS` only the end, with a button to show all of it.
 * Rendered as text nodes, never HTML.
 */
export function StreamingText(props: { text: string | TextPieces; empty: string; className?: string; testId?: string; label: string }) {
  const { text } = props;
  const [showAll, setShowAll] = useState(false);
  // The first piece shown starts on a piece boundary, so the pieces keep their keys and text as the tail moves on.
  const firstPiece = showAll ? 0 : Math.max(0, Math.ceil((text.length - SHOWN_TAIL_CHARS) / PIECE_CHARS));
  const hidden = firstPiece * PIECE_CHARS;
  const pieces: Array<{ at: number; text: string }> = [];
  if (text instanceof TextPieces) text.pieces.slice(firstPiece).forEach((piece, i) => pieces.push({ at: hidden + i * PIECE_CHARS, text: piece }));
  else for (let at = hidden; at < text.length; at += PIECE_CHARS) pieces.push({ at, text: text.slice(at, at + PIECE_CHARS) });
  return (
    <>
      {hidden > 0 && (
        <p className="meta hidden-text">
          The first {hidden.toLocaleString('en-US')} of {text.length.toLocaleString('en-US')} characters are hidden.{' '}
          <button type="button" aria-label={`Show all of the ${props.label.toLowerCase()}`} onClick={() => setShowAll(true)}>
            Show all
          </button>
        </p>
      )}
      <pre className={props.className ?? 'model-text'} data-testid={props.testId}>
        {text.length === 0 ? props.empty : pieces.map((p) => <Piece key={p.at} text={p.text} />)}
      </pre>
    </>
  );
}
